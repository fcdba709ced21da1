#include "ui/panel/categorycolors.h"

#include <QPalette>

namespace capwatch::ui {

using namespace Qt::StringLiterals;

namespace {

struct Hue
{
    QStringView category;
    int hue; ///< degrees
    float lightShift; ///< green looks brighter than the others at the same lightness
};

// Hues far enough apart to tell apart side by side: green, orange, violet, blue, magenta, teal,
// ochre, red. Teal and ochre look lighter than the others at the same lightness; they are
// darkened on light themes to keep their names readable.
constexpr Hue kHues[] = {
    { u"success", 135, -0.06f },
    { u"token_limit", 28, 0.0f },
    { u"rate_limit", 268, 0.0f },
    { u"transient", 205, -0.02f },
    { u"auth", 318, 0.0f },
    { u"too_large", 176, -0.10f },
    { u"billing", 48, -0.11f },
    { u"fatal", 356, 0.0f },
};

} // namespace

bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightnessF() < 0.5;
}

QColor categoryColor(const QString &category, const QPalette &palette)
{
    const bool dark = isDarkPalette(palette);
    for (const Hue &h : kHues) {
        if (h.category == category) {
            // Dark text-like colours on a light window, light ones on a dark window: both keep
            // about 4.5:1 contrast against the Window colour for the category names drawn in them.
            return dark ? QColor::fromHslF(float(h.hue) / 360.0f, 0.70f, 0.66f)
                        : QColor::fromHslF(float(h.hue) / 360.0f, 0.78f, 0.38f + h.lightShift);
        }
    }
    if (category == u"parked")
        return parkedColor(palette);
    if (category == u"paced")
        return pacedColor(palette);
    // running, cancelled, unknown
    return neutralCategoryColor(palette);
}

QColor categoryColor(retry::Category category, const QPalette &palette)
{
    const std::string_view name = retry::nameOf(category);
    return categoryColor(QString::fromLatin1(name.data(), qsizetype(name.size())), palette);
}

QColor parkedColor(const QPalette &palette)
{
    // Between the blue of transient (205) and the violet of rate_limit (268), and less
    // saturated than both, so side by side it is neither.
    constexpr float kHue = 234.0f / 360.0f;
    return isDarkPalette(palette) ? QColor::fromHslF(kHue, 0.55f, 0.72f)
                                  : QColor::fromHslF(kHue, 0.45f, 0.42f);
}

QColor pacedColor(const QPalette &palette)
{
    // Between the ochre of billing (48) and the green of success (135), and far less saturated
    // than both: a quiet olive that reads as "held back", beside the parked slate blue.
    constexpr float kHue = 88.0f / 360.0f;
    return isDarkPalette(palette) ? QColor::fromHslF(kHue, 0.35f, 0.66f)
                                  : QColor::fromHslF(kHue, 0.40f, 0.30f);
}

QColor neutralCategoryColor(const QPalette &palette)
{
    // Two fifths of the way from the text to the window.
    return blend(palette.color(QPalette::WindowText), palette.color(QPalette::Window), 0.4);
}

QColor blend(const QColor &a, const QColor &b, double amountOfB)
{
    const double t = amountOfB;
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t),
        float(a.greenF() * (1 - t) + b.greenF() * t), float(a.blueF() * (1 - t) + b.blueF() * t));
}

QStringList legendCategories()
{
    return { u"success"_s, u"token_limit"_s, u"rate_limit"_s, u"transient"_s, u"auth"_s,
        u"too_large"_s, u"billing"_s, u"fatal"_s, u"running"_s };
}

} // namespace capwatch::ui
