/* status.c - orion_strerror for the status codes of orion/status.h. */
#include "orion/status.h"

const char *orion_strerror(orion_status status) {
  switch (status) {
#define ORION_X_CASE(name, msg) \
  case name:                    \
    return msg;
    ORION_STATUS_LIST(ORION_X_CASE)
#undef ORION_X_CASE
  case ORION_STATUS_COUNT:
    break;
  }
  return "unknown status";
}
