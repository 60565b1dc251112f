#include "cone.h"

const char *cs_zone_name(cs_zone z)
{
    switch (z) {
    case CS_ZONE_TOP: return "top";
    case CS_ZONE_BOTTOM: return "bottom";
    case CS_ZONE_MIDDLE: return "middle";
    }
    return "?";
}
