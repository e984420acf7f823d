/* driver/json.c - see json.h.  Recursive descent, depth-limited. */
#include "json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

typedef struct parser {
  const char *t;
  size_t len, pos;
  char *err;
} parser;

static void fail(parser *p, const char *what) {
  if (!p->err)
    p->err = drv_xasprintf("%s at offset %zu", what, p->pos);
}

static void ws(parser *p) {
  while (p->pos < p->len && (p->t[p->pos] == ' ' || p->t[p->pos] == '\t' ||
                             p->t[p->pos] == '\n' || p->t[p->pos] == '\r'))
    p->pos++;
}

static json_value *new_value(json_kind k) {
  json_value *v = drv_xmalloc(sizeof *v);
  memset(v, 0, sizeof *v);
  v->kind = k;
  return v;
}

static void put_utf8(orion_strbuf *b, unsigned cp) {
  if (cp < 0x80) {
    orion_sb_addc(b, (char)cp);
  } else if (cp < 0x800) {
    orion_sb_addc(b, (char)(0xc0 | (cp >> 6)));
    orion_sb_addc(b, (char)(0x80 | (cp & 0x3f)));
  } else {
    orion_sb_addc(b, (char)(0xe0 | (cp >> 12)));
    orion_sb_addc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
    orion_sb_addc(b, (char)(0x80 | (cp & 0x3f)));
  }
}

static char *parse_string(parser *p) {
  if (p->pos >= p->len || p->t[p->pos] != '"') {
    fail(p, "expected string");
    return NULL;
  }
  p->pos++;
  orion_strbuf b;
  orion_sb_init(&b);
  while (p->pos < p->len && p->t[p->pos] != '"') {
    char c = p->t[p->pos++];
    if (c != '\\') {
      orion_sb_addc(&b, c);
      continue;
    }
    if (p->pos >= p->len)
      break;
    c = p->t[p->pos++];
    switch (c) {
    case 'n': orion_sb_addc(&b, '\n'); break;
    case 't': orion_sb_addc(&b, '\t'); break;
    case 'r': orion_sb_addc(&b, '\r'); break;
    case 'b': orion_sb_addc(&b, '\b'); break;
    case 'f': orion_sb_addc(&b, '\f'); break;
    case 'u': {
      unsigned cp = 0;
      for (int i = 0; i < 4; i++) {
        if (p->pos >= p->len) {
          fail(p, "bad \\u escape");
          orion_sb_free(&b);
          return NULL;
        }
        char h = p->t[p->pos++];
        cp <<= 4;
        if (h >= '0' && h <= '9')
          cp |= (unsigned)(h - '0');
        else if (h >= 'a' && h <= 'f')
          cp |= (unsigned)(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F')
          cp |= (unsigned)(h - 'A' + 10);
        else {
          fail(p, "bad \\u escape");
          orion_sb_free(&b);
          return NULL;
        }
      }
      put_utf8(&b, cp);
      break;
    }
    default: orion_sb_addc(&b, c); break;
    }
  }
  if (p->pos >= p->len) {
    fail(p, "unterminated string");
    orion_sb_free(&b);
    return NULL;
  }
  p->pos++;
  return orion_sb_detach(&b);
}

static json_value *parse_value(parser *p, int depth);

static void push_item(json_value *v, char *key, json_value *item) {
  v->items = drv_xrealloc(v->items, (v->n + 1) * sizeof *v->items);
  v->items[v->n] = item;
  if (v->kind == JSON_OBJ) {
    v->keys = drv_xrealloc(v->keys, (v->n + 1) * sizeof *v->keys);
    v->keys[v->n] = key;
  }
  v->n++;
}

static json_value *parse_container(parser *p, int depth, int is_obj) {
  json_value *v = new_value(is_obj ? JSON_OBJ : JSON_ARR);
  char close = is_obj ? '}' : ']';
  p->pos++;
  ws(p);
  if (p->pos < p->len && p->t[p->pos] == close) {
    p->pos++;
    return v;
  }
  for (;;) {
    char *key = NULL;
    ws(p);
    if (is_obj) {
      key = parse_string(p);
      if (!key)
        break;
      ws(p);
      if (p->pos >= p->len || p->t[p->pos] != ':') {
        free(key);
        fail(p, "expected ':'");
        break;
      }
      p->pos++;
    }
    json_value *item = parse_value(p, depth + 1);
    if (!item) {
      free(key);
      break;
    }
    push_item(v, key, item);
    ws(p);
    if (p->pos < p->len && p->t[p->pos] == ',') {
      p->pos++;
      continue;
    }
    if (p->pos < p->len && p->t[p->pos] == close) {
      p->pos++;
      return v;
    }
    fail(p, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
    break;
  }
  json_free(v);
  return NULL;
}

static json_value *parse_value(parser *p, int depth) {
  if (depth > JSON_MAX_DEPTH) {
    fail(p, "nesting too deep");
    return NULL;
  }
  ws(p);
  if (p->pos >= p->len) {
    fail(p, "unexpected end of input");
    return NULL;
  }
  char c = p->t[p->pos];
  if (c == '{' || c == '[')
    return parse_container(p, depth, c == '{');
  if (c == '"') {
    char *s = parse_string(p);
    if (!s)
      return NULL;
    json_value *v = new_value(JSON_STR);
    v->str = s;
    return v;
  }
  static const struct {
    const char *word;
    json_kind kind;
    int b;
  } words[] = {{"true", JSON_BOOL, 1}, {"false", JSON_BOOL, 0}, {"null", JSON_NULL, 0}};
  for (size_t i = 0; i < 3; i++) {
    size_t n = strlen(words[i].word);
    if (p->len - p->pos >= n && memcmp(p->t + p->pos, words[i].word, n) == 0) {
      p->pos += n;
      json_value *v = new_value(words[i].kind);
      v->b = words[i].b;
      return v;
    }
  }
  if (c == '-' || (c >= '0' && c <= '9')) {
    char buf[64];
    size_t n = 0;
    while (p->pos < p->len && n + 1 < sizeof buf &&
           strchr("+-0123456789.eE", p->t[p->pos]))
      buf[n++] = p->t[p->pos++];
    buf[n] = 0;
    char *end;
    double d = strtod(buf, &end);
    if (*end) {
      fail(p, "bad number");
      return NULL;
    }
    json_value *v = new_value(JSON_NUM);
    v->num = d;
    return v;
  }
  fail(p, "unexpected character");
  return NULL;
}

json_value *json_parse(const char *text, size_t len, char **err) {
  parser p = {text, len, 0, NULL};
  json_value *v = parse_value(&p, 0);
  if (v) {
    ws(&p);
    if (p.pos != p.len) {
      fail(&p, "trailing characters");
      json_free(v);
      v = NULL;
    }
  }
  if (!v && err)
    *err = p.err;
  else
    free(p.err);
  return v;
}

json_value *json_parse_lines(const char *text, size_t len, char **err) {
  json_value *arr = new_value(JSON_ARR);
  size_t pos = 0, line = 1;
  while (pos < len) {
    size_t e = pos;
    while (e < len && text[e] != '\n')
      e++;
    size_t s = pos;
    while (s < e && (text[s] == ' ' || text[s] == '\t' || text[s] == '\r'))
      s++;
    if (s < e) {
      char *lerr = NULL;
      json_value *v = json_parse(text + s, e - s, &lerr);
      if (!v) {
        if (err)
          *err = drv_xasprintf("line %zu: %s", line, lerr ? lerr : "malformed");
        free(lerr);
        json_free(arr);
        return NULL;
      }
      push_item(arr, NULL, v);
    }
    pos = e + 1;
    line++;
  }
  return arr;
}

void json_free(json_value *v) {
  if (!v)
    return;
  for (size_t i = 0; i < v->n; i++) {
    json_free(v->items[i]);
    if (v->keys)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->str);
  free(v);
}

const json_value *json_get(const json_value *obj, const char *key) {
  if (!obj || obj->kind != JSON_OBJ)
    return NULL;
  for (size_t i = 0; i < obj->n; i++)
    if (strcmp(obj->keys[i], key) == 0)
      return obj->items[i];
  return NULL;
}

const char *json_get_str(const json_value *obj, const char *key) {
  const json_value *v = json_get(obj, key);
  return v && v->kind == JSON_STR ? v->str : NULL;
}

double json_get_num(const json_value *obj, const char *key, double dflt) {
  const json_value *v = json_get(obj, key);
  return v && v->kind == JSON_NUM ? v->num : dflt;
}

int json_get_bool(const json_value *obj, const char *key, int dflt) {
  const json_value *v = json_get(obj, key);
  return v && v->kind == JSON_BOOL ? v->b : dflt;
}

void json_write(orion_strbuf *b, const json_value *v) {
  if (!v) {
    orion_sb_adds(b, "null");
    return;
  }
  switch (v->kind) {
  case JSON_NULL: orion_sb_adds(b, "null"); break;
  case JSON_BOOL: orion_sb_adds(b, v->b ? "true" : "false"); break;
  case JSON_NUM:
    if (v->num == floor(v->num) && fabs(v->num) < 1e15)
      orion_sb_addf(b, "%.0f", v->num);
    else
      orion_sb_addf(b, "%.17g", v->num);
    break;
  case JSON_STR: orion_sb_json(b, v->str); break;
  case JSON_ARR:
  case JSON_OBJ:
    orion_sb_addc(b, v->kind == JSON_ARR ? '[' : '{');
    for (size_t i = 0; i < v->n; i++) {
      if (i)
        orion_sb_addc(b, ',');
      if (v->kind == JSON_OBJ) {
        orion_sb_json(b, v->keys[i]);
        orion_sb_addc(b, ':');
      }
      json_write(b, v->items[i]);
    }
    orion_sb_addc(b, v->kind == JSON_ARR ? ']' : '}');
    break;
  }
}
