#include "uilogging.h"

Q_LOGGING_CATEGORY(lcUi, "capwatch.ui")
