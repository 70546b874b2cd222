/*
 * robot_msgs.msg._checks: compiled fast tests of two message checks.
 *
 * pose_rows_ok() answers "are these rows certainly valid?" for PoseTrajectory's check
 * (robot_msgs.trajectory.pose): every stamp, coordinate and quaternion component
 * finite, every coordinate within the limit, stamps strictly increasing, every
 * quaternion's norm within the tolerance of 1. It is a filter in front of the NumPy
 * check, not a second definition: True lets a trajectory skip the NumPy check; False
 * (or arrays it cannot read) sends it there, which decides and names what it refuses.
 * The norm is taken with a margin of 1e-12 inside the tolerance, so a rounding order
 * other than NumPy's cannot call valid what NumPy refuses.
 *
 * all_finite(), at_least() and increasing() tell whether every value of an array is
 * finite, at least a bound, greater than the one before: one call where NumPy makes
 * two or three (a ufunc, then all) and Python floats one per value.
 *
 * symmetric_ok() is Extrinsic's test of its covariance (finite or NaN, symmetric
 * within numpy.allclose's tolerances, NaN read as 0), NumPy's operations in C.
 *
 * frozen() keeps an array no one can write to and copies any other read-only: one call
 * where the generated check made four (flags, copy, setflags and immutable()'s walk of
 * the array's bases, 0.35 us an array), with NumPy's C API (its headers at build time).
 *
 * rotation_ok() is robot_msgs.compare.alignment.is_rotation_matrix's test of nine
 * float64 values, the same operations in the same order on IEEE doubles (setup.py
 * turns floating-point contraction off), so the two answer alike bit for bit.
 *
 * WHY compiled: a message checks its arrays on every construction, and NumPy costs
 * about a microsecond a call whatever the size. The catalog's 20-pose PoseTrajectory
 * took 24 us to build (15 NumPy calls), 16x a frozen dataclass of the same fields;
 * an Alignment's rotation test on Python floats took 0.8 us of its 2.9
 * (benchmarks/bench_messages.py --only construct; issue 20 asks for 2x).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

/* A C-contiguous float64 buffer of `count` items (or any multiple of -count when
   count < 0) whose shape is (rows, cols) when cols > 0 (rows < 0: any) or (rows,) when
   cols == 0; any shape when rows == cols == -1. 0 with the buffer held, or -1 with no
   error set: not such an array (the caller's NumPy road decides). */
static int
get_doubles(PyObject *obj, Py_buffer *view, Py_ssize_t count, Py_ssize_t rows,
            Py_ssize_t cols)
{
    Py_ssize_t items;
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        return -1;
    }
    items = view->len / (Py_ssize_t)sizeof(double);
    if (view->itemsize != (Py_ssize_t)sizeof(double) || view->format == NULL
        || strcmp(view->format, "d") != 0
        || (count >= 0 ? items != count : items % -count != 0)
        || (cols > 0 && (view->ndim != 2 || view->shape[1] != cols
                         || (rows >= 0 && view->shape[0] != rows)))
        || (cols == 0 && (view->ndim != 1 || (rows >= 0 && view->shape[0] != rows)))) {
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/*
 * pose_rows_ok(stamps, positions, quaternions, limit, tol) -> bool | None
 *
 * stamps float64 (N,), positions float64 (N, 3), quaternions float64 (N, 4), all
 * C-contiguous and of these shapes; None when they are not (the caller checks with
 * NumPy).
 */
static PyObject *
checks_pose_rows_ok(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *stamps_obj, *positions_obj, *quats_obj;
    double limit, tol;
    Py_buffer views[3];
    Py_ssize_t n, i;
    int ok = 1;

    if (!PyArg_ParseTuple(args, "OOOdd", &stamps_obj, &positions_obj, &quats_obj, &limit,
                          &tol)) {
        return NULL;
    }
    if (get_doubles(stamps_obj, &views[0], -1, -1, 0) < 0) {
        Py_RETURN_NONE;
    }
    n = views[0].len / (Py_ssize_t)sizeof(double);
    if (get_doubles(positions_obj, &views[1], 3 * n, n, 3) < 0) {
        PyBuffer_Release(&views[0]);
        Py_RETURN_NONE;
    }
    if (get_doubles(quats_obj, &views[2], 4 * n, n, 4) < 0) {
        PyBuffer_Release(&views[1]);
        PyBuffer_Release(&views[0]);
        Py_RETURN_NONE;
    }
    {
        const double *t = (const double *)views[0].buf;
        const double *p = (const double *)views[1].buf;
        const double *q = (const double *)views[2].buf;
        const double low = 1.0 - (tol - 1e-12), high = 1.0 + (tol - 1e-12);
        /* isfinite(x) and fabs(x) <= limit in one test: NaN compares false. */
        for (i = 0; ok && i < 3 * n; i++) {
            ok = fabs(p[i]) <= limit;
        }
        for (i = 0; ok && i < n; i++) {
            const double x = q[4 * i], y = q[4 * i + 1], z = q[4 * i + 2], w = q[4 * i + 3];
            const double norm = sqrt(((x * x + y * y) + z * z) + w * w);
            ok = isfinite(t[i]) && low <= norm && norm <= high && (i == 0 || t[i - 1] < t[i]);
        }
    }
    PyBuffer_Release(&views[2]);
    PyBuffer_Release(&views[1]);
    PyBuffer_Release(&views[0]);
    return PyBool_FromLong(ok);
}

/*
 * rotation_ok(r, tol) -> bool | None
 *
 * r: a (3, 3) float64 array, C-contiguous; None when it is not.
 */
static PyObject *
checks_rotation_ok(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *r_obj;
    double tol;
    Py_buffer view;
    int ok;

    if (!PyArg_ParseTuple(args, "Od", &r_obj, &tol)) {
        return NULL;
    }
    if (get_doubles(r_obj, &view, 9, 3, 3) < 0) {
        Py_RETURN_NONE;
    }
    {
        const double *m = (const double *)view.buf;
        const double a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6],
                     h = m[7], i = m[8];
        const double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
        ok = isfinite(a + b + c + d + e + f + g + h + i)
             && fabs(a * a + d * d + g * g - 1.0) <= tol
             && fabs(b * b + e * e + h * h - 1.0) <= tol
             && fabs(c * c + f * f + i * i - 1.0) <= tol
             && fabs(a * b + d * e + g * h) <= tol
             && fabs(a * c + d * f + g * i) <= tol
             && fabs(b * c + e * f + h * i) <= tol
             && fabs(det - 1.0) <= tol;
    }
    PyBuffer_Release(&view);
    return PyBool_FromLong(ok);
}

/*
 * all_finite(values) -> bool | None
 *
 * values: float64, C-contiguous, any shape; None when it is not.
 */
static PyObject *
checks_all_finite(PyObject *Py_UNUSED(module), PyObject *values_obj)
{
    Py_buffer view;
    Py_ssize_t n, i;
    int ok = 1;

    if (get_doubles(values_obj, &view, -1, -1, -1) < 0) {
        Py_RETURN_NONE;
    }
    n = view.len / (Py_ssize_t)sizeof(double);
    for (i = 0; ok && i < n; i++) {
        ok = isfinite(((const double *)view.buf)[i]);
    }
    PyBuffer_Release(&view);
    return PyBool_FromLong(ok);
}

/*
 * symmetric_ok(matrix, n) -> bool | None
 *
 * matrix: n x n float64, C-contiguous; None when it is not. True when every value is
 * finite or NaN and the matrix, NaN read as 0, is symmetric within numpy.allclose's
 * default tolerances: |a - b| <= 1e-8 + 1e-5 |b| for a = m[i][j], b = m[j][i], the
 * operations NumPy makes, in its order (so both answer alike).
 */
static PyObject *
checks_symmetric_ok(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *matrix_obj;
    Py_ssize_t n, i, j;
    Py_buffer view;
    int ok = 1;

    if (!PyArg_ParseTuple(args, "On", &matrix_obj, &n)) {
        return NULL;
    }
    if (n < 1 || n > 4096 || get_doubles(matrix_obj, &view, n * n, n, n) < 0) {
        Py_RETURN_NONE;
    }
    {
        const double *m = (const double *)view.buf;
        for (i = 0; ok && i < n; i++) {
            for (j = 0; ok && j < n; j++) {
                const double a = m[i * n + j], b = m[j * n + i];
                const double x = isfinite(a) ? a : 0.0, y = isfinite(b) ? b : 0.0;
                ok = !isinf(a) && fabs(x - y) <= 1e-8 + 1e-5 * fabs(y);
            }
        }
    }
    PyBuffer_Release(&view);
    return PyBool_FromLong(ok);
}

/*
 * frozen(array) -> ndarray
 *
 * array itself when no one can write to its memory (robot_msgs.msg.arrays.immutable:
 * it and every array it views read-only, down to an array that owns its memory, or to
 * bytes, directly or through a read-only memoryview); else a C-ordered copy, made
 * read-only (what array.copy() and setflags(write=False) give).
 */
static PyObject *
checks_frozen(PyObject *Py_UNUSED(module), PyObject *array)
{
    PyObject *view = array, *out;
    if (!PyArray_Check(array)) {
        PyErr_SetString(PyExc_TypeError, "frozen: expected a numpy.ndarray");
        return NULL;
    }
    while (PyArray_Check(view)) {
        if (PyArray_FLAGS((PyArrayObject *)view) & NPY_ARRAY_WRITEABLE) {
            goto copy;
        }
        if (PyArray_BASE((PyArrayObject *)view) == NULL) {
            return Py_NewRef(array);
        }
        view = PyArray_BASE((PyArrayObject *)view);
    }
    if (PyMemoryView_Check(view) && PyMemoryView_GET_BUFFER(view)->readonly) {
        view = PyMemoryView_GET_BUFFER(view)->obj;
    }
    if (view != NULL && PyBytes_Check(view)) {
        return Py_NewRef(array);
    }
copy:
    out = PyArray_NewCopy((PyArrayObject *)array, NPY_CORDER);
    if (out != NULL) {
        PyArray_CLEARFLAGS((PyArrayObject *)out, NPY_ARRAY_WRITEABLE);
    }
    return out;
}

/*
 * increasing(values) -> bool | None
 *
 * values: float64 or a signed 64-bit integer, C-contiguous; None when it is not. True
 * when every value is greater than the one before it (a NaN after or before another
 * value never is; one value alone always is, as NumPy's rows[1:] > rows[:-1] says).
 */
static PyObject *
checks_increasing(PyObject *Py_UNUSED(module), PyObject *values_obj)
{
    Py_buffer view;
    Py_ssize_t n, i;
    int ok = 1;
    char kind;

    if (PyObject_GetBuffer(values_obj, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    kind = view.format != NULL && view.format[0] != '\0' && view.format[1] == '\0'
               ? view.format[0] : '\0';
    if (view.itemsize != 8 || (kind != 'd' && kind != 'l' && kind != 'q')) {
        PyBuffer_Release(&view);
        Py_RETURN_NONE;
    }
    n = view.len / 8;
    if (kind == 'd') {
        const double *v = (const double *)view.buf;
        for (i = 1; ok && i < n; i++) {
            ok = v[i - 1] < v[i];
        }
    }
    else {
        const int64_t *v = (const int64_t *)view.buf;
        for (i = 1; ok && i < n; i++) {
            ok = v[i - 1] < v[i];
        }
    }
    PyBuffer_Release(&view);
    return PyBool_FromLong(ok);
}

/*
 * at_least(values, low) -> bool | None
 *
 * values: float64, C-contiguous; None when it is not. True when every value is >= low
 * (NaN is not).
 */
static PyObject *
checks_at_least(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *values_obj;
    double low;
    Py_buffer view;
    Py_ssize_t n, i;
    int ok = 1;

    if (!PyArg_ParseTuple(args, "Od", &values_obj, &low)) {
        return NULL;
    }
    if (get_doubles(values_obj, &view, -1, -1, -1) < 0) {
        Py_RETURN_NONE;
    }
    n = view.len / (Py_ssize_t)sizeof(double);
    for (i = 0; ok && i < n; i++) {
        ok = ((const double *)view.buf)[i] >= low;
    }
    PyBuffer_Release(&view);
    return PyBool_FromLong(ok);
}

/*
 * frozen_as(array, dtype, shape) -> ndarray | None
 *
 * frozen(array) when array is exactly a numpy.ndarray of that dtype (the same object,
 * as the generated check's `array.dtype is dtype`) whose shape has shape's sizes (a
 * tuple of ints, -1 for any size); None otherwise (the check then takes its full road).
 */
static PyObject *
checks_frozen_as(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *array, *shape;
    Py_ssize_t ndim, i;
    if (nargs != 3 || !PyTuple_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "frozen_as(array, dtype, shape: tuple)");
        return NULL;
    }
    array = args[0];
    shape = args[2];
    if (!PyArray_CheckExact(array)
        || (PyObject *)PyArray_DESCR((PyArrayObject *)array) != args[1]) {
        Py_RETURN_NONE;
    }
    ndim = PyTuple_GET_SIZE(shape);
    if (PyArray_NDIM((PyArrayObject *)array) != ndim) {
        Py_RETURN_NONE;
    }
    for (i = 0; i < ndim; i++) {
        Py_ssize_t want = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, i));
        if (want == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (want >= 0 && PyArray_DIM((PyArrayObject *)array, i) != want) {
            Py_RETURN_NONE;
        }
    }
    return checks_frozen(module, array);
}

/*
 * plain_scalars(mapping) -> bool
 *
 * True when mapping is exactly a dict whose keys are ASCII str and whose values are
 * float, int (of 64 bits), bool or None (exact types): a map of scalars the generated
 * check keeps as it is. False says nothing (a text value, a tuple, a non-ASCII key...): the check's
 * own item test decides.
 */
static PyObject *
checks_plain_scalars(PyObject *Py_UNUSED(module), PyObject *mapping)
{
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    if (!PyDict_CheckExact(mapping)) {
        Py_RETURN_FALSE;
    }
    while (PyDict_Next(mapping, &pos, &key, &value)) {
        if (!PyUnicode_CheckExact(key)) {
            Py_RETURN_FALSE;
        }
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(key) < 0) {
            return NULL;
        }
#endif
        if (!PyUnicode_IS_ASCII(key)) {
            Py_RETURN_FALSE;
        }
        if (!(value == Py_None || PyFloat_CheckExact(value) || PyLong_CheckExact(value)
              || PyBool_Check(value))) {
            Py_RETURN_FALSE;
        }
        if (PyLong_CheckExact(value)) {
            /* An int beyond 64 bits: Python's test bounds it (4300 digits at most). */
            int overflow = 0;
            (void)PyLong_AsLongLongAndOverflow(value, &overflow);
            if (overflow != 0) {
                Py_RETURN_FALSE;
            }
        }
    }
    Py_RETURN_TRUE;
}

static PyMethodDef checks_methods[] = {
    {"plain_scalars", checks_plain_scalars, METH_O,
     "plain_scalars(mapping) -> bool: a dict of ASCII str keys to float, int, bool or "
     "None (False: not certainly)."},
    {"frozen_as", (PyCFunction)(void (*)(void))checks_frozen_as, METH_FASTCALL,
     "frozen_as(array, dtype, shape) -> ndarray | None: frozen(array) if it is an ndarray "
     "of that dtype and shape (-1: any size), else None."},
    {"increasing", checks_increasing, METH_O,
     "increasing(values) -> bool | None: whether each value is greater than the one "
     "before it (None: not C-contiguous float64 or int64)."},
    {"at_least", checks_at_least, METH_VARARGS,
     "at_least(values, low) -> bool | None: whether every value is >= low (None: not "
     "C-contiguous float64)."},
    {"frozen", checks_frozen, METH_O,
     "frozen(array) -> ndarray: the array if no one can write to its memory, else a "
     "read-only copy."},
    {"symmetric_ok", checks_symmetric_ok, METH_VARARGS,
     "symmetric_ok(matrix, n) -> bool | None: finite or NaN values, symmetric within "
     "allclose's tolerances with NaN read as 0 (None: not n x n C-contiguous float64)."},
    {"all_finite", checks_all_finite, METH_O,
     "all_finite(values) -> bool | None: whether every value is finite (None: not "
     "C-contiguous float64)."},
    {"pose_rows_ok", checks_pose_rows_ok, METH_VARARGS,
     "pose_rows_ok(stamps, positions, quaternions, limit, tol) -> bool | None: whether "
     "the rows are certainly valid (None: not C-contiguous float64)."},
    {"rotation_ok", checks_rotation_ok, METH_VARARGS,
     "rotation_ok(r, tol) -> bool | None: is_rotation_matrix's test of nine float64 "
     "values (None: not C-contiguous float64)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef checks_module = {
    PyModuleDef_HEAD_INIT,
    "_checks",
    "Compiled fast tests of robot_msgs' message checks (see _checks.c).",
    -1,
    checks_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__checks(void)
{
    import_array();
    return PyModule_Create(&checks_module);
}
