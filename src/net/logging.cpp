#include "logging.h"

Q_LOGGING_CATEGORY(lcNet, "capwatch.net")
Q_LOGGING_CATEGORY(lcRetry, "capwatch.retry")
