/* robot_msgs.msg._json_arrays: an array field's JSON dict, as array_to_json writes it,
 * packed into the bytes of its values in one C pass.
 *
 * Why by hand: msgspec, the JSON library underneath, hands an array field's
 * {"dtype", "shape", "data"} to a Python hook, and there the checks of the dict, the
 * type test of every value and NumPy's conversion of a Python list took 1.46 us for a
 * 3x3 rotation, half of what reading an Alignment cost; json.loads(json.dumps(d)) of
 * the same message takes 6.8 us in all. Packed here and read by numpy.frombuffer
 * (read-only, its memory a bytes object no one can write), the same array costs
 * about 0.6 us. Neither msgspec nor NumPy reads this form.
 *
 * pack(value, dtype_name, code) returns the bytes only for the form array_to_json
 * writes: a dict of exactly the three keys, "dtype" the field's dtype name, "shape" a
 * list of ints >= 0 whose product is the number of values, and every value of exactly
 * the type the dtype holds (a float for a float dtype, within FLT_MAX for float32; an
 * int within the dtype's range; True/False for bool). Anything else returns None and
 * the Python reader (robot_msgs.msg.arrays.array_from_json) decides, naming what it
 * refuses; so this can only save time. The values are written in native byte order,
 * as the field's dtype holds them.
 *
 * unpack(array, dtype_name) is the other way, array_to_json's dict of a C-contiguous
 * array in one call: NumPy's ravel().tolist(), the test for infinities and the dict
 * took 0.62 us in Python for a 3x3 rotation, msgspec's whole encoding of an Alignment
 * (two arrays) 2.0 us.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static PyObject *key_dtype, *key_shape, *key_data, *infinity, *minus_infinity;

/* Bounds of an integer code, or 0 for a code that is not an integer one. */
static int
int_bounds(char code, long long *low, long long *high, int *size)
{
    switch (code) {
    case 'b': *low = INT8_MIN; *high = INT8_MAX; *size = 1; return 1;
    case 'B': *low = 0; *high = UINT8_MAX; *size = 1; return 1;
    case 'h': *low = INT16_MIN; *high = INT16_MAX; *size = 2; return 1;
    case 'H': *low = 0; *high = UINT16_MAX; *size = 2; return 1;
    case 'i': *low = INT32_MIN; *high = INT32_MAX; *size = 4; return 1;
    case 'I': *low = 0; *high = UINT32_MAX; *size = 4; return 1;
    case 'q': *low = INT64_MIN; *high = INT64_MAX; *size = 8; return 1;
    case 'Q': *low = 0; *high = INT64_MAX; *size = 8; return 1; /* larger: Python decides */
    default: return 0;
    }
}

/* The most axes a NumPy array has (NPY_MAXDIMS, NumPy 2). */
#define MAX_AXES 64

/* The number of values a shape list states, or -1 when it is not a list of ints >= 0
 * that NumPy can make an array of with items of `itemsize` bytes: at most MAX_AXES
 * sizes, and the bytes of the non-zero ones within Py_ssize_t (NumPy checks them even
 * when a zero size makes the array empty: [0, 2**62, 2**62] is "array is too big"). */
static Py_ssize_t
shape_size(PyObject *shape, Py_ssize_t itemsize)
{
    if (!PyList_CheckExact(shape) || PyList_GET_SIZE(shape) > MAX_AXES) {
        return -1;
    }
    Py_ssize_t nbytes = itemsize;
    int empty = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(shape); i++) {
        PyObject *dim = PyList_GET_ITEM(shape, i);
        if (!PyLong_CheckExact(dim)) {
            return -1;
        }
        int overflow = 0;
        long long d = PyLong_AsLongLongAndOverflow(dim, &overflow);
        if (overflow || d < 0 || (d == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return -1;
        }
        if (d == 0) {
            empty = 1;
        }
        else if (nbytes > PY_SSIZE_T_MAX / d) {
            return -1;
        }
        else {
            nbytes *= (Py_ssize_t)d;
        }
    }
    return empty ? 0 : nbytes / itemsize;
}

/* Write the values of the list `data` (n items) as `code` into out; 0, or -1 when one
 * is not what the code holds (no exception set). */
static int
pack_values(PyObject *data, Py_ssize_t n, char code, char *out)
{
    PyObject **items = PySequence_Fast_ITEMS(data);
    if (code == 'd' || code == 'f') {
        for (Py_ssize_t i = 0; i < n; i++) {
            if (!PyFloat_CheckExact(items[i])) {
                return -1;
            }
            const double v = PyFloat_AS_DOUBLE(items[i]);
            if (code == 'd') {
                memcpy(out + i * sizeof(double), &v, sizeof(double));
            }
            else {
                if (isfinite(v) && fabs(v) > FLT_MAX) {
                    return -1; /* may round to FLT_MAX or overflow: Python decides */
                }
                const float f = (float)v;
                memcpy(out + i * sizeof(float), &f, sizeof(float));
            }
        }
        return 0;
    }
    if (code == '?') {
        for (Py_ssize_t i = 0; i < n; i++) {
            if (items[i] != Py_True && items[i] != Py_False) {
                return -1;
            }
            out[i] = items[i] == Py_True;
        }
        return 0;
    }
    long long low, high;
    int size;
    if (!int_bounds(code, &low, &high, &size)) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyLong_CheckExact(items[i])) {
            return -1;
        }
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(items[i], &overflow);
        if (overflow || (v == -1 && PyErr_Occurred()) || v < low || v > high) {
            PyErr_Clear();
            return -1;
        }
        /* in range, so the unsigned conversion (modulo 2^bits) is the two's complement
         * pattern of a signed value and the value of an unsigned one */
        char *at = out + i * size;
        switch (size) {
        case 1: { const uint8_t x = (uint8_t)v; memcpy(at, &x, 1); break; }
        case 2: { const uint16_t x = (uint16_t)v; memcpy(at, &x, 2); break; }
        case 4: { const uint32_t x = (uint32_t)v; memcpy(at, &x, 4); break; }
        default: { const uint64_t x = (uint64_t)v; memcpy(at, &x, 8); break; }
        }
    }
    return 0;
}

static PyObject *
json_arrays_pack(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyUnicode_CheckExact(args[1]) || !PyUnicode_CheckExact(args[2])
        || PyUnicode_GET_LENGTH(args[2]) != 1) {
        PyErr_SetString(PyExc_TypeError, "pack(value, dtype_name: str, code: str)");
        return NULL;
    }
    PyObject *value = args[0];
    if (!PyDict_CheckExact(value) || PyDict_GET_SIZE(value) != 3) {
        Py_RETURN_NONE;
    }
    /* Keys of exactly str only: then no lookup below runs Python code (a key's __eq__),
     * which could remove a value whose borrowed reference is held here. */
    Py_ssize_t pos = 0;
    PyObject *key, *item;
    while (PyDict_Next(value, &pos, &key, &item)) {
        if (!PyUnicode_CheckExact(key)) {
            Py_RETURN_NONE;
        }
    }
    PyObject *dtype = PyDict_GetItemWithError(value, key_dtype);
    PyObject *shape = dtype ? PyDict_GetItemWithError(value, key_shape) : NULL;
    PyObject *data = shape ? PyDict_GetItemWithError(value, key_data) : NULL;
    if (data == NULL) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    if (!PyUnicode_CheckExact(dtype) || PyUnicode_Compare(dtype, args[1]) != 0
        || !PyList_CheckExact(data)) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    const char code = (char)PyUnicode_READ_CHAR(args[2], 0);
    long long low, high;
    int size = 0;
    if (code == 'd') {
        size = sizeof(double);
    }
    else if (code == 'f') {
        size = sizeof(float);
    }
    else if (code == '?') {
        size = 1;
    }
    else if (!int_bounds(code, &low, &high, &size)) {
        Py_RETURN_NONE;
    }
    const Py_ssize_t n = PyList_GET_SIZE(data);
    if (shape_size(shape, size) != n || n > PY_SSIZE_T_MAX / size) {
        Py_RETURN_NONE;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * size);
    if (out == NULL) {
        return NULL;
    }
    if (pack_values(data, n, code, PyBytes_AS_STRING(out)) < 0) {
        Py_DECREF(out);
        Py_RETURN_NONE;
    }
    return out;
}

/* The values of a C-contiguous buffer of `format` as a list of Python numbers, each
 * infinity as the string "Infinity" or "-Infinity" (NaN stays a float: msgspec writes
 * it null); NULL with no exception when the format is not one written here. */
static PyObject *
values_list(const Py_buffer *view)
{
    const char *format = view->format ? view->format : "B";
#if PY_LITTLE_ENDIAN
    const char native = '<';
#else
    const char native = '>';
#endif
    if (format[0] == native || format[0] == '=' || format[0] == '@') {
        format++; /* native order, marked */
    }
    if (format[0] == '\0' || format[1] != '\0') {
        return NULL;
    }
    const char code = format[0];
    const Py_ssize_t n = view->itemsize ? view->len / view->itemsize : 0;
    PyObject *list = PyList_New(n);
    if (list == NULL) {
        return NULL;
    }
    const char *at = (const char *)view->buf;
    for (Py_ssize_t i = 0; i < n; i++, at += view->itemsize) {
        PyObject *item = NULL;
        switch (code) {
        case 'd': case 'f': {
            double v;
            if (code == 'd') { memcpy(&v, at, sizeof v); }
            else { float f; memcpy(&f, at, sizeof f); v = (double)f; }
            if (isinf(v)) {
                item = v > 0 ? infinity : minus_infinity;
                Py_INCREF(item);
            }
            else {
                item = PyFloat_FromDouble(v);
            }
            break;
        }
        case '?': item = *at ? Py_True : Py_False; Py_INCREF(item); break;
        case 'b': item = PyLong_FromLong(*(const int8_t *)at); break;
        case 'B': item = PyLong_FromLong(*(const uint8_t *)at); break;
        case 'h': { int16_t x; memcpy(&x, at, 2); item = PyLong_FromLong(x); break; }
        case 'H': { uint16_t x; memcpy(&x, at, 2); item = PyLong_FromLong(x); break; }
        case 'i': { int32_t x; memcpy(&x, at, 4); item = PyLong_FromLong(x); break; }
        case 'I': { uint32_t x; memcpy(&x, at, 4); item = PyLong_FromUnsignedLong(x); break; }
        case 'l': case 'q': {
            if (view->itemsize != 8) { Py_DECREF(list); return NULL; }
            int64_t x; memcpy(&x, at, 8); item = PyLong_FromLongLong(x); break;
        }
        case 'L': case 'Q': {
            if (view->itemsize != 8) { Py_DECREF(list); return NULL; }
            uint64_t x; memcpy(&x, at, 8); item = PyLong_FromUnsignedLongLong(x); break;
        }
        default:
            Py_DECREF(list);
            return NULL;
        }
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *
json_arrays_unpack(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyUnicode_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "unpack(array, dtype_name: str)");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear(); /* not a C-contiguous buffer: Python writes it */
        Py_RETURN_NONE;
    }
    PyObject *data = values_list(&view);
    PyObject *shape = NULL, *out = NULL;
    if (data == NULL) {
        goto done;
    }
    shape = PyTuple_New(view.ndim);
    if (shape == NULL) {
        goto done;
    }
    for (int d = 0; d < view.ndim; d++) {
        PyObject *size = PyLong_FromSsize_t(view.shape[d]);
        if (size == NULL) {
            goto done;
        }
        PyTuple_SET_ITEM(shape, d, size);
    }
    out = PyDict_New();
    if (out != NULL && (PyDict_SetItem(out, key_dtype, args[1]) < 0
                        || PyDict_SetItem(out, key_shape, shape) < 0
                        || PyDict_SetItem(out, key_data, data) < 0)) {
        Py_CLEAR(out);
    }
done:
    PyBuffer_Release(&view);
    Py_XDECREF(data);
    Py_XDECREF(shape);
    if (out == NULL && !PyErr_Occurred()) {
        Py_RETURN_NONE;
    }
    return out;
}

static PyMethodDef json_arrays_methods[] = {
    {"pack", (PyCFunction)(void (*)(void))json_arrays_pack, METH_FASTCALL,
     "pack(value, dtype_name, code) -> the values of an array dict as bytes of the struct "
     "code ('d', 'f', 'b', 'B', 'h', 'H', 'i', 'I', 'q', 'Q', '?'), or None when the dict "
     "is not exactly the form array_to_json writes for that dtype."},
    {"unpack", (PyCFunction)(void (*)(void))json_arrays_unpack, METH_FASTCALL,
     "unpack(array, dtype_name) -> {'dtype', 'shape', 'data'} of a C-contiguous array, "
     "infinities as 'Infinity'/'-Infinity', or None for a layout or format it does not "
     "write."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef json_arrays_module = {
    PyModuleDef_HEAD_INIT, "_json_arrays",
    "An array field's JSON dict packed into the bytes of its values.", -1,
    json_arrays_methods,
};

PyMODINIT_FUNC
PyInit__json_arrays(void)
{
    key_dtype = PyUnicode_InternFromString("dtype");
    key_shape = PyUnicode_InternFromString("shape");
    key_data = PyUnicode_InternFromString("data");
    infinity = PyUnicode_InternFromString("Infinity");
    minus_infinity = PyUnicode_InternFromString("-Infinity");
    if (key_dtype == NULL || key_shape == NULL || key_data == NULL || infinity == NULL
        || minus_infinity == NULL) {
        return NULL;
    }
    return PyModule_Create(&json_arrays_module);
}
