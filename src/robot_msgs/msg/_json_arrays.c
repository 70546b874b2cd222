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
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static PyObject *key_dtype, *key_shape, *key_data;

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

/* The number of values a shape list states, or -1 when it is not a list of ints >= 0
 * (or the product overflows). */
static Py_ssize_t
shape_size(PyObject *shape)
{
    if (!PyList_CheckExact(shape)) {
        return -1;
    }
    Py_ssize_t size = 1;
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
        if (d != 0 && size > PY_SSIZE_T_MAX / d) {
            return -1;
        }
        size *= (Py_ssize_t)d;
    }
    return size;
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
    const Py_ssize_t n = PyList_GET_SIZE(data);
    if (shape_size(shape) != n) {
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
    if (n > PY_SSIZE_T_MAX / size) {
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

static PyMethodDef json_arrays_methods[] = {
    {"pack", (PyCFunction)(void (*)(void))json_arrays_pack, METH_FASTCALL,
     "pack(value, dtype_name, code) -> the values of an array dict as bytes of the struct "
     "code ('d', 'f', 'b', 'B', 'h', 'H', 'i', 'I', 'q', 'Q', '?'), or None when the dict "
     "is not exactly the form array_to_json writes for that dtype."},
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
    if (key_dtype == NULL || key_shape == NULL || key_data == NULL) {
        return NULL;
    }
    return PyModule_Create(&json_arrays_module);
}
