#pragma once

// The one settings file capwatch and capwatch-cli share when none is named on the command line
// (docs/interfaces.md "capwatch.conf"): `$XDG_CONFIG_HOME/capwatch/capwatch.conf`
// (`~/.config/capwatch/capwatch.conf`). Releases before 2026-12 had capwatch-cli read
// `capwatch.ini` beside it; what such a file holds is merged into capwatch.conf once and the
// file itself is left as it was.

#include <QString>

namespace capwatch::session {

/// The path of the shared settings file, after merging a `capwatch.ini` left beside it by an
/// earlier capwatch-cli (mergeLegacySettings()). Both programs name the file only through this.
QString defaultSettingsPath();

/// The path defaultSettingsPath() names, without merging anything.
QString settingsFilePath();

/// Merges `legacyPath` (an INI file) into `path` once: every key `path` does not have yet is
/// copied; keys `path` has win. Marks `path` (`[capwatch] merged_legacy`) so that a later call,
/// and a change made since, is never overwritten. `legacyPath` is never changed or removed.
/// False with `error` when `path` could not be written (nothing is marked: the next start tries
/// again); true when there was nothing to merge.
bool mergeLegacySettings(const QString &path, const QString &legacyPath, QString *error = nullptr);

} // namespace capwatch::session
