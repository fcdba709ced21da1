#include "historylogging.h"

Q_LOGGING_CATEGORY(lcHistory, "capwatch.history")
