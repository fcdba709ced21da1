#include "historytypes.h"

namespace capwatch::history {

using namespace Qt::StringLiterals;

namespace { } // namespace

QString nameOf(Role role)
{
    switch (role) {
    case Role::User:
        return u"user"_s;
    case Role::Assistant:
        return u"assistant"_s;
    case Role::System:
        return u"system"_s;
    }
    return {};
}

QString nameOf(MessageState state)
{
    switch (state) {
    case MessageState::Pending:
        return u"pending"_s;
    case MessageState::Complete:
        return u"complete"_s;
    case MessageState::CutOff:
        return u"cut_off"_s;
    case MessageState::Replaced:
        return u"replaced"_s;
    }
    return {};
}

QString nameOf(SendOutcome outcome)
{
    switch (outcome) {
    case SendOutcome::Running:
        return {};
    case SendOutcome::Succeeded:
        return u"succeeded"_s;
    case SendOutcome::GaveUp:
        return u"gave_up"_s;
    case SendOutcome::Cancelled:
        return u"cancelled"_s;
    }
    return {};
}

std::optional<Role> roleFromName(const QString &name)
{
    for (const Role r : { Role::User, Role::Assistant, Role::System })
        if (nameOf(r) == name)
            return r;
    return std::nullopt;
}

std::optional<MessageState> messageStateFromName(const QString &name)
{
    for (const MessageState s : { MessageState::Pending, MessageState::Complete,
             MessageState::CutOff, MessageState::Replaced })
        if (nameOf(s) == name)
            return s;
    return std::nullopt;
}

std::optional<SendOutcome> sendOutcomeFromName(const QString &name)
{
    for (const SendOutcome o : { SendOutcome::Running, SendOutcome::Succeeded, SendOutcome::GaveUp,
             SendOutcome::Cancelled })
        if (nameOf(o) == name)
            return o;
    return std::nullopt;
}

std::optional<retry::Category> categoryFromName(const QString &name)
{
    return retry::categoryNamed(name.toStdString());
}

retry::WaitSource waitSourceFromName(const QString &name)
{
    return retry::waitSourceNamed(name.toStdString()).value_or(retry::WaitSource::None);
}

retry::EndReason endReasonFromName(const QString &name)
{
    return retry::endReasonNamed(name.toStdString()).value_or(retry::EndReason::None);
}

QString seamsText(const QList<qsizetype> &seams)
{
    if (seams.isEmpty())
        return {};
    QString out = u"["_s;
    for (qsizetype i = 0; i < seams.size(); ++i) {
        if (i > 0)
            out += u',';
        out += QString::number(seams[i]);
    }
    return out + u']';
}

QList<qsizetype> seamsFromText(const QString &text)
{
    QList<qsizetype> out;
    QStringView rest = QStringView(text).trimmed();
    if (!rest.startsWith(u'[') || !rest.endsWith(u']'))
        return out;
    rest = rest.mid(1, rest.size() - 2);
    for (QStringView part : rest.split(u',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong n = part.trimmed().toLongLong(&ok);
        if (ok && n >= 0 && (out.isEmpty() || n > out.last()))
            out.append(qsizetype(n));
    }
    return out;
}

QString costSourceName(CostSource source)
{
    switch (source) {
    case CostSource::Provider:
        return u"provider"_s;
    case CostSource::PriceTable:
        return u"price_table"_s;
    case CostSource::Unknown:
        break;
    }
    return u"unknown"_s;
}

CostSource costSourceFromName(QStringView name)
{
    if (name == u"provider")
        return CostSource::Provider;
    if (name == u"price_table")
        return CostSource::PriceTable;
    return CostSource::Unknown;
}

} // namespace capwatch::history
