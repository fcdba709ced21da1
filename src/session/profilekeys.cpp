#include "profilekeys.h"

#include <QStringView>
#include <algorithm>

namespace capwatch::session::profilekeys {

namespace {

bool isTokenChar(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9')
        || QStringView(u"!#$%&'*+-.^_`|~").contains(c);
}

} // namespace

bool isHeaderName(const QString &name)
{
    return !name.isEmpty() && std::all_of(name.cbegin(), name.cend(), isTokenChar);
}

bool isProfileId(const QString &id)
{
    return !id.isEmpty() && std::all_of(id.cbegin(), id.cend(), [](QChar c) {
        return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9')
            || c == u'-' || c == u'_';
    });
}

} // namespace capwatch::session::profilekeys
