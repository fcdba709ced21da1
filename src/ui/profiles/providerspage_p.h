#pragma once

// What providerspage.cpp, providerspage_editor.cpp (the selected profile's form) and
// providerspage_models.cpp (its model list) share.

#include "ui/profiles/providerspage.h"

#include <QString>

namespace capwatch::ui {

using Source = session::ProviderChoice::KeySource;

/// "1 model", "12 models".
QString modelCount(int n);

} // namespace capwatch::ui
