/*
 * robot_msgs.evaluation._relations: the compiled loop of RPE's default relation.
 *
 * rpe_translation() computes, for index pairs (i, j) of associated trajectories,
 *
 *     || R(P_i)^T (p_j - p_i) - R(Q_i)^T (q_j - q_i) ||
 *
 * (P estimate, Q reference, R the rotation of a unit quaternion x, y, z, w), which is
 * robot_msgs.evaluation.relations.rpe_errors(..., "translation"): the same operations
 * in the same order as its NumPy kernel (quat_xyzw_rotate with inverse=True, then the
 * row norm), so the two give the same bits. It is an accelerator of that one road, not
 * a second definition: without a C compiler, or for any other relation, NumPy computes.
 *
 * WHY compiled: the NumPy kernel makes about 70 array operations a chunk of pairs (two
 * quaternion rotations written out per component) and took 85-95 ms of all-pairs metre
 * RPE at 10^6 poses on the 2-core machine (its whole run: 0.7 s); this loop takes a few
 * milliseconds (benchmarks/bench_scale.py, the closing note of issue 24).
 *
 * Floating-point contraction is off (setup.py passes -ffp-contract=off where the
 * compiler takes it): a fused multiply-add rounds once where NumPy rounds twice.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

/* R(q)^T v for a unit quaternion q = (x, y, z, w): v + w t + u x t with t = 2 u x v
   written as robot_msgs.rotations.quat_xyzw_rotate(inverse=True) writes it. */
static inline void
rotate_back(const double *q, const double *v, double *out)
{
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double vx = v[0], vy = v[1], vz = v[2];
    const double tx = 2.0 * (z * vy - y * vz);
    const double ty = 2.0 * (x * vz - z * vx);
    const double tz = 2.0 * (y * vx - x * vy);
    out[0] = vx + w * tx - (y * tz - z * ty);
    out[1] = vy + w * ty - (z * tx - x * tz);
    out[2] = vz + w * tz - (x * ty - y * tx);
}

/* A C-contiguous buffer (writable if asked) of `itemsize`-byte items of one of the
   native struct formats in `formats` ("d": float64; "lqn": a signed integer): `count`
   of them, or any multiple of -count when count < 0. ValueError naming `name`
   otherwise (an int64 array where float64 is read, or a byte-swapped one, included). */
static int
get_array(PyObject *obj, Py_buffer *view, int writable, Py_ssize_t itemsize,
          const char *formats, Py_ssize_t count, const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    Py_ssize_t items;
    const char *format;
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        return -1;
    }
    format = view->format == NULL ? "B" : view->format;
    if (format[0] == '@') {
        format++;
    }
    if (format[0] == '\0' || format[1] != '\0' || strchr(formats, format[0]) == NULL) {
        PyErr_Format(PyExc_ValueError, "%s: expected items of format '%s', got '%s'", name,
                     formats, format);
        PyBuffer_Release(view);
        return -1;
    }
    items = view->itemsize == itemsize ? view->len / itemsize : -1;
    if (items < 0 || (count >= 0 ? items != count : items % -count != 0)) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd-byte items, %zd of them", name,
                     itemsize, count >= 0 ? count : -count);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/*
 * rpe_translation(p_ref, q_ref, p_est, q_est, pairs, out) -> None
 *
 * p_ref, p_est: float64 (N, 3); q_ref, q_est: float64 (N, 4), unit; pairs: intp (K, 2)
 * with every index in [0, N) (the caller checked them; they are checked again here);
 * out: writable float64 (K,). All C-contiguous.
 */
static PyObject *
relations_rpe_translation(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *p_ref_obj, *q_ref_obj, *p_est_obj, *q_est_obj, *pairs_obj, *out_obj;
    Py_buffer views[6];  /* p_ref, out, q_ref, p_est, q_est, pairs: released below */
    Py_ssize_t n, k, r, got = 0, bad = -1;
    PyObject *result = NULL;

    if (!PyArg_ParseTuple(args, "OOOOOO", &p_ref_obj, &q_ref_obj, &p_est_obj, &q_est_obj,
                          &pairs_obj, &out_obj)) {
        return NULL;
    }
    /* The sizes come from the arrays: p_ref gives N, out gives K. */
    if (get_array(p_ref_obj, &views[0], 0, sizeof(double), "d", -3, "p_ref") < 0) {
        goto done;
    }
    got = 1;
    n = views[0].len / (3 * (Py_ssize_t)sizeof(double));
    if (get_array(out_obj, &views[1], 1, sizeof(double), "d", -1, "out") < 0) {
        goto done;
    }
    got = 2;
    k = views[1].len / (Py_ssize_t)sizeof(double);
    if (get_array(q_ref_obj, &views[2], 0, sizeof(double), "d", 4 * n, "q_ref") < 0) {
        goto done;
    }
    got = 3;
    if (get_array(p_est_obj, &views[3], 0, sizeof(double), "d", 3 * n, "p_est") < 0) {
        goto done;
    }
    got = 4;
    if (get_array(q_est_obj, &views[4], 0, sizeof(double), "d", 4 * n, "q_est") < 0) {
        goto done;
    }
    got = 5;
    if (get_array(pairs_obj, &views[5], 0, sizeof(Py_ssize_t), "lqn", 2 * k, "pairs") < 0) {
        goto done;
    }
    got = 6;
    {
        const double *p_ref = views[0].buf, *q_ref = views[2].buf;
        const double *p_est = views[3].buf, *q_est = views[4].buf;
        const Py_ssize_t *pairs = views[5].buf;
        double *out = views[1].buf;
        Py_BEGIN_ALLOW_THREADS
        for (r = 0; r < k; r++) {
            const Py_ssize_t i = pairs[2 * r], j = pairs[2 * r + 1];
            double ref_step[3], est_step[3], ref_back[3], est_back[3], d0, d1, d2;
            if (i < 0 || i >= n || j < 0 || j >= n) {
                bad = r;
                break;
            }
            ref_step[0] = p_ref[3 * j] - p_ref[3 * i];
            ref_step[1] = p_ref[3 * j + 1] - p_ref[3 * i + 1];
            ref_step[2] = p_ref[3 * j + 2] - p_ref[3 * i + 2];
            est_step[0] = p_est[3 * j] - p_est[3 * i];
            est_step[1] = p_est[3 * j + 1] - p_est[3 * i + 1];
            est_step[2] = p_est[3 * j + 2] - p_est[3 * i + 2];
            rotate_back(q_est + 4 * i, est_step, est_back);
            rotate_back(q_ref + 4 * i, ref_step, ref_back);
            d0 = est_back[0] - ref_back[0];
            d1 = est_back[1] - ref_back[1];
            d2 = est_back[2] - ref_back[2];
            /* NumPy's einsum("ij,ij->i") adds a row of three as (x² + z²) + y². */
            out[r] = sqrt((d0 * d0 + d2 * d2) + d1 * d1);
        }
        Py_END_ALLOW_THREADS
    }
    if (bad >= 0) {
        PyErr_Format(PyExc_ValueError, "pairs: row %zd holds an index outside [0, %zd)", bad, n);
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    while (got > 0) {
        PyBuffer_Release(&views[--got]);
    }
    return result;
}

static PyMethodDef relations_methods[] = {
    {"rpe_translation", relations_rpe_translation, METH_VARARGS,
     "rpe_translation(p_ref, q_ref, p_est, q_est, pairs, out) -> None: RPE's translation "
     "errors of the pairs into out."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef relations_module = {
    PyModuleDef_HEAD_INIT,
    "_relations",
    "Compiled loop of robot_msgs.evaluation.relations' RPE translation (see that module).",
    -1,
    relations_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__relations(void)
{
    return PyModule_Create(&relations_module);
}
