#include "providermemory.h"

namespace capwatch::session {

ProviderMemory::ProviderMemory(QObject *parent)
    : QObject(parent)
{
}

ProviderMemory::~ProviderMemory() = default;

} // namespace capwatch::session
