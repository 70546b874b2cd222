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
 * all_finite() tells whether every value of a float64 array is finite, one call
 * where NumPy makes two (isfinite, then all) and Python floats one per value.
 *
 * symmetric_ok() is Extrinsic's test of its covariance (finite or NaN, symmetric
 * within numpy.allclose's tolerances, NaN read as 0), NumPy's operations in C.
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

#include <math.h>
#include <string.h>

/* A C-contiguous float64 buffer of `count` items (or any multiple of -count when
   count < 0). 0 with the buffer held, or -1 with no error set: not such an array. */
static int
get_doubles(PyObject *obj, Py_buffer *view, Py_ssize_t count)
{
    Py_ssize_t items;
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        return -1;
    }
    items = view->len / (Py_ssize_t)sizeof(double);
    if (view->itemsize != (Py_ssize_t)sizeof(double) || view->format == NULL
        || strcmp(view->format, "d") != 0
        || (count >= 0 ? items != count : items % -count != 0)) {
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/*
 * pose_rows_ok(stamps, positions, quaternions, limit, tol) -> bool | None
 *
 * stamps float64 (N,), positions float64 (N, 3), quaternions float64 (N, 4), all
 * C-contiguous; None when they are not (the caller checks with NumPy).
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
    if (get_doubles(stamps_obj, &views[0], -1) < 0) {
        Py_RETURN_NONE;
    }
    n = views[0].len / (Py_ssize_t)sizeof(double);
    if (get_doubles(positions_obj, &views[1], 3 * n) < 0) {
        PyBuffer_Release(&views[0]);
        Py_RETURN_NONE;
    }
    if (get_doubles(quats_obj, &views[2], 4 * n) < 0) {
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
 * r: nine float64 values, C-contiguous (a (3, 3) array); None when it is not.
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
    if (get_doubles(r_obj, &view, 9) < 0) {
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

    if (get_doubles(values_obj, &view, -1) < 0) {
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
    if (n < 0 || n > 4096 || get_doubles(matrix_obj, &view, n * n) < 0) {
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

static PyMethodDef checks_methods[] = {
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
    return PyModule_Create(&checks_module);
}
