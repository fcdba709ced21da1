#include "providerwindow.h"

namespace capwatch::retry {

} // namespace capwatch::retry
