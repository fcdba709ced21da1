#include "ui/window/uilogging.h"

Q_LOGGING_CATEGORY(lcUi, "capwatch.ui")
