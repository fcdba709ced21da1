#include "sessionlogging.h"

Q_LOGGING_CATEGORY(lcSession, "capwatch.session")
