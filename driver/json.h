/* driver/json.h - the little JSON the driver writes and reads back.
 *
 * Writing: json_str appends a JSON string literal (escaping ", \ and control
 * characters; other bytes are copied, so UTF-8 passes through).
 * Reading: json_parse builds a tree of json_value from one JSON text (RFC
 * 8259 subset: no \u surrogate pairs beyond the BMP; numbers kept as double).
 * json_parse_lines parses JSON Lines (blank lines skipped) into an array.
 * Trees are freed with json_free.  Lookups on the wrong kind return NULL or
 * the given default; nothing aborts.
 */
#ifndef ORION_DRIVER_JSON_H
#define ORION_DRIVER_JSON_H

#include <stddef.h>

#include "util.h"

typedef enum json_kind { JSON_NULL, JSON_BOOL, JSON_NUM, JSON_STR, JSON_ARR, JSON_OBJ } json_kind;

typedef struct json_value {
  json_kind kind;
  int b;
  double num;
  char *str;                 /* JSON_STR */
  size_t n;                  /* JSON_ARR / JSON_OBJ: number of items */
  struct json_value **items; /* JSON_ARR / JSON_OBJ values */
  char **keys;               /* JSON_OBJ keys */
} json_value;


/* NULL on malformed input, *err (malloc'd) says where. */
json_value *json_parse(const char *text, size_t len, char **err);
json_value *json_parse_lines(const char *text, size_t len, char **err);
void json_free(json_value *v);

const json_value *json_get(const json_value *obj, const char *key);
const char *json_get_str(const json_value *obj, const char *key);       /* NULL */
double json_get_num(const json_value *obj, const char *key, double dflt);
int json_get_bool(const json_value *obj, const char *key, int dflt);

/* Re-serialise a value compactly. */
void json_write(orion_strbuf *b, const json_value *v);

#endif /* ORION_DRIVER_JSON_H */
