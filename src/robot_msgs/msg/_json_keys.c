/* robot_msgs.msg._json_keys: the first key given twice in one object of JSON text.
 *
 * Why by hand: msgspec, the JSON library underneath, keeps the last of two equal keys
 * in silence (msgspec issue 648, open) and has no hook to tell; the package's other
 * JSON reader (robot_msgs.documents.parse_json) refuses them. The same walk in Python
 * (robot_msgs.msg.json_text.repeated_key_in_python: bytes.find per brace and quote)
 * took 18 us on the median catalog message, which decodes in 2.1 us (4.4 us for a Point,
 * 61 us for an Imu); here 0.4 us (0.1 for a Point, 1.0 for an Imu). On a saved 2e5-pose
 * result both take 0.01-0.02 s, memchr over its numbers: 3-4 % of its 0.33 s load
 * (min of 7 and 9 runs, a shared 2-core machine).
 *
 * repeated_key(text) takes JSON text msgspec has parsed (bytes) and returns the raw
 * bytes between the quotes of the first key that an earlier key of the same object
 * equals, byte for byte, or None; True where it meets a key written with an escape
 * (\u0061 is a), which only the Python walk, unescaping keys, can compare.
 *
 * Only the open objects' keys are kept, on a stack (a closed object's keys are popped
 * with it), and an object's own are compared one by one up to SCAN_KEYS, in a hash table
 * past that. WHY: one table of every key of the text took 50 MB for 1e5 objects of three
 * keys (2.4 MB of text), and decode_json of a nav/Path of 1e5 poses 2.2 s where it took
 * 0.38 s without the walk (a review).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    Py_ssize_t object; /* serial number of the object, 0 for a free slot */
    Py_ssize_t start;
    Py_ssize_t size;
    uint64_t hash;
} Entry;

typedef struct {
    Py_ssize_t start;
    Py_ssize_t size;
    uint64_t hash;
} Key;

typedef struct {
    Py_ssize_t base;   /* its first key's place on the key stack */
    Py_ssize_t serial; /* 0 while its keys are scanned, else its number in the table */
} Open;

/* Keys of an object compared one by one up to this many; past it, in the table. */
#define SCAN_KEYS 32

typedef struct {
    Entry *slots;
    size_t mask; /* capacity - 1, a power of two minus one */
    size_t used;
} Table;

static uint64_t
hash_bytes(const char *p, Py_ssize_t n, Py_ssize_t object)
{
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)object; /* FNV-1a */
    for (Py_ssize_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static int
table_grow(Table *t)
{
    size_t capacity = (t->mask + 1) * 2;
    Entry *slots = PyMem_Calloc(capacity, sizeof(Entry));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i <= t->mask; i++) {
        Entry e = t->slots[i];
        if (e.object) {
            size_t j = (size_t)e.hash & (capacity - 1);
            while (slots[j].object) {
                j = (j + 1) & (capacity - 1);
            }
            slots[j] = e;
        }
    }
    PyMem_Free(t->slots);
    t->slots = slots;
    t->mask = capacity - 1;
    return 0;
}

/* 1: the key was in the object already, 0: added, -1: no memory. */
static int
table_add(Table *t, const char *text, Py_ssize_t object, Py_ssize_t start, Py_ssize_t size)
{
    if ((t->used + 1) * 2 > t->mask + 1 && table_grow(t) < 0) {
        return -1;
    }
    uint64_t h = hash_bytes(text + start, size, object);
    size_t j = (size_t)h & t->mask;
    while (t->slots[j].object) {
        Entry *e = &t->slots[j];
        if (e->hash == h && e->object == object && e->size == size
            && memcmp(text + e->start, text + start, (size_t)size) == 0) {
            return 1;
        }
        j = (j + 1) & t->mask;
    }
    t->slots[j] = (Entry){object, start, size, h};
    t->used++;
    return 0;
}

/* The next position of byte c at or after from, or n. */
static Py_ssize_t
next_of(const char *text, Py_ssize_t n, Py_ssize_t from, char c)
{
    if (from >= n) {
        return n;
    }
    const char *hit = memchr(text + from, c, (size_t)(n - from));
    return hit == NULL ? n : hit - text;
}

/* Room for one more of *items (*capacity of them, size bytes each); -1: no memory. */
static int
reserve(void **items, Py_ssize_t *capacity, Py_ssize_t used, size_t size)
{
    if (used < *capacity) {
        return 0;
    }
    Py_ssize_t grown = *capacity * 2;
    void *more = PyMem_Realloc(*items, (size_t)grown * size);
    if (more == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *items = more;
    *capacity = grown;
    return 0;
}

/* 1: the key is one of the innermost open object's already, 0: kept, -1: no memory. */
static int
key_add(const char *text, Py_ssize_t start, Py_ssize_t size, Open *object, Key **keys,
        Py_ssize_t *key_capacity, Py_ssize_t *top, Table *table, Py_ssize_t *serial)
{
    uint64_t h = hash_bytes(text + start, size, 0);
    if (object->serial == 0) {
        for (Py_ssize_t i = object->base; i < *top; i++) {
            Key *k = &(*keys)[i];
            if (k->hash == h && k->size == size
                && memcmp(text + k->start, text + start, (size_t)size) == 0) {
                return 1;
            }
        }
        if (*top - object->base >= SCAN_KEYS) { /* many keys: its own from now on in the table */
            if (table->slots == NULL) {
                table->slots = PyMem_Calloc(64, sizeof(Entry));
                if (table->slots == NULL) {
                    PyErr_NoMemory();
                    return -1;
                }
                table->mask = 63;
            }
            object->serial = ++*serial;
            for (Py_ssize_t i = object->base; i < *top; i++) {
                Key *k = &(*keys)[i];
                if (table_add(table, text, object->serial, k->start, k->size) < 0) {
                    return -1;
                }
            }
        }
    }
    if (object->serial != 0) {
        int found = table_add(table, text, object->serial, start, size);
        if (found != 0) {
            return found;
        }
    }
    if (reserve((void **)keys, key_capacity, *top, sizeof(Key)) < 0) {
        return -1;
    }
    (*keys)[(*top)++] = (Key){start, size, h};
    return 0;
}

static PyObject *
json_keys_repeated_key(PyObject *Py_UNUSED(module), PyObject *arg)
{
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "repeated_key() expects bytes");
        return NULL;
    }
    const char *text = PyBytes_AS_STRING(arg);
    Py_ssize_t n = PyBytes_GET_SIZE(arg);
    PyObject *out = NULL;
    Table table = {NULL, 0, 0}; /* made for the first object past SCAN_KEYS keys */
    Py_ssize_t open_capacity = 16, key_capacity = 64, depth = 0, top = 0, serial = 0;
    Open *opened = PyMem_Malloc((size_t)open_capacity * sizeof(Open));
    Key *keys = PyMem_Malloc((size_t)key_capacity * sizeof(Key));
    if (opened == NULL || keys == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* the next quote, opening and closing brace, each found by memchr once */
    Py_ssize_t quote = next_of(text, n, 0, '"');
    Py_ssize_t open = next_of(text, n, 0, '{');
    Py_ssize_t close = next_of(text, n, 0, '}');
    while (quote < n || open < n || close < n) {
        if (quote < open && quote < close) {
            Py_ssize_t start = quote + 1, end = start;
            for (;;) { /* the closing quote: one not escaped by a backslash */
                end = next_of(text, n, end, '"');
                Py_ssize_t slashes = 0;
                while (end - 1 - slashes >= start && text[end - 1 - slashes] == '\\') {
                    slashes++;
                }
                if (end >= n || slashes % 2 == 0) {
                    break;
                }
                end++;
            }
            Py_ssize_t after = end + 1;
            while (after < n
                   && (text[after] == ' ' || text[after] == '\t' || text[after] == '\n'
                       || text[after] == '\r')) {
                after++;
            }
            if (after < n && text[after] == ':' && depth > 0) {
                if (memchr(text + start, '\\', (size_t)(end - start)) != NULL) {
                    out = Py_NewRef(Py_True); /* an escape: the Python walk unescapes keys */
                    goto done;
                }
                int found = key_add(text, start, end - start, &opened[depth - 1], &keys,
                                    &key_capacity, &top, &table, &serial);
                if (found < 0) {
                    goto done;
                }
                if (found) {
                    out = PyBytes_FromStringAndSize(text + start, end - start);
                    goto done;
                }
            }
            quote = next_of(text, n, end + 1, '"');
            if (open < end) {
                open = next_of(text, n, end + 1, '{');
            }
            if (close < end) {
                close = next_of(text, n, end + 1, '}');
            }
        }
        else if (open < close) {
            if (reserve((void **)&opened, &open_capacity, depth, sizeof(Open)) < 0) {
                goto done;
            }
            opened[depth++] = (Open){top, 0};
            open = next_of(text, n, open + 1, '{');
        }
        else {
            if (depth > 0) {
                top = opened[--depth].base; /* its keys go with it */
            }
            close = next_of(text, n, close + 1, '}');
        }
    }
    out = Py_NewRef(Py_None);
done:
    PyMem_Free(table.slots);
    PyMem_Free(opened);
    PyMem_Free(keys);
    return out;
}

static PyMethodDef json_keys_methods[] = {
    {"repeated_key", json_keys_repeated_key, METH_O,
     "repeated_key(text) -> the raw bytes of the first key of parsed JSON text (bytes) "
     "that an earlier key of the same object equals byte for byte, or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef json_keys_module = {
    PyModuleDef_HEAD_INIT, "_json_keys", "The first key given twice in one JSON object.", -1,
    json_keys_methods,
};

PyMODINIT_FUNC
PyInit__json_keys(void)
{
    return PyModule_Create(&json_keys_module);
}
