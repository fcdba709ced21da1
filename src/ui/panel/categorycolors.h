#pragma once

// One colour per attempt category (retry-policy.md section 1), shared by the retry log table, the
// timeline and the retry panel so a category looks the same everywhere; and the one way colours
// are mixed. The categories' names in words are RetryTexts'.

#include "retry/classifier.h"

#include <QColor>
#include <QString>
#include <QStringList>

class QPalette;

namespace capwatch::ui {

/// The colour of a category (`success`, `token_limit`, `rate_limit`, `transient`, `auth`,
/// `too_large`, `billing`, `fatal`), or of the pseudo-categories `running` (an attempt without a
/// result yet) and `cancelled`. Distinct hues whose lightness follows the palette's Window colour,
/// so they stay readable on light and dark themes. Unknown or empty: a neutral colour.
QColor categoryColor(const QString &category, const QPalette &palette);
QColor categoryColor(retry::Category category, const QPalette &palette);
/// The colour of an attempt without a category (`running`, `cancelled`): no hue, between the
/// text and the window.
QColor neutralCategoryColor(const QPalette &palette);

/// The colour of a parked send (docs/parking.md): the timeline's parked segment, the sidebar's
/// clock. A slate blue, less saturated than the categories so it reads as "on hold", not as an
/// outcome; its lightness follows the palette like theirs. categoryColor() gives it for
/// `parked`.
QColor parkedColor(const QPalette &palette);

/// The colour of a pacing wait (docs/retry-policy.md section 8.1): the timeline's paced
/// segment before attempt 1, the panel's pacing line. A muted sage green, less saturated than
/// the categories (a send held back on purpose, not an outcome) and apart from the parked blue;
/// its lightness follows the palette like theirs. categoryColor() gives it for `paced`.
QColor pacedColor(const QPalette &palette);

/// The categories a legend shows, in order, the pseudo-category `running` last.
QStringList legendCategories();

/// True when the Window colour of `palette` is dark.
bool isDarkPalette(const QPalette &palette);

/// `a` moved towards `b` by `amountOfB` (0: `a`, 1: `b`), channel by channel; opaque.
QColor blend(const QColor &a, const QColor &b, double amountOfB);

} // namespace capwatch::ui
