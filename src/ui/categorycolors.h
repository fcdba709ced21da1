#pragma once

// One colour per attempt category (retry-policy.md section 1), shared by the retry log table, the
// timeline and the retry panel so a category looks the same everywhere; and the one way colours
// are mixed.

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
/// The colour of an attempt without a category (`running`, `cancelled`): no hue, between the
/// text and the window.
QColor neutralCategoryColor(const QPalette &palette);

/// The categories a legend shows, in order, the pseudo-category `running` last.
QStringList legendCategories();

/// A short translated name for a category ("token limit", "request too large", "out of credit"),
/// for legends, tooltips, the retry panel and the retry log table.
QString categoryDisplayName(const QString &category);

/// A short translated name for a wait source (`retry-after`, `retry-after-ms`, `retry-delay`,
/// `message`, `ratelimit-reset`, `backoff`, `credential-refresh`), as the
/// timeline's wait labels and the retry log table show it. Unknown: the name itself.
QString waitSourceDisplayName(const QString &source);

/// A short translated name for the reason a send ended (`budget_exhausted`, `cancelled`, ...).
/// Unknown: the name itself.
QString reasonDisplayName(const QString &reason);

/// True when the Window colour of `palette` is dark.
bool isDarkPalette(const QPalette &palette);

/// `a` moved towards `b` by `amountOfB` (0: `a`, 1: `b`), channel by channel; opaque.
QColor blend(const QColor &a, const QColor &b, double amountOfB);

} // namespace capwatch::ui
