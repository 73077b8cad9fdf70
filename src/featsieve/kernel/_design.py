"""The feature-wise kernel design, streamed: what HSIC Lasso's solvers ask of the data.

HSIC Lasso (seed 004 eq. (3)) is a non-negative Lasso whose design matrix has
one column ``vec(K_bar^(k)) / ||K_bar^(k)||_F`` per feature: ``n^2`` rows
(``n B M`` rows in block HSIC Lasso). The reference package builds that matrix
(7.6 GB of float64 at ``n = d = 1000``). A Lasso on the Gram form needs far
less: the vector ``h_k = <K_bar^(k), L_bar>`` and the Gram columns
``G[:, l] = <K_bar^(k), K_bar^(l)>`` of the features that become active.
:class:`KernelDesign` computes exactly those, streaming over chunks of features
and recomputing the kernels of a chunk whenever a pass needs them, so memory
is ``O(chunk n^2 + d n)`` whatever ``d``.

Two identities keep a pass cheap (seed 004 §2.5):

* ``<K_bar, V> = <K, V>`` for any centered ``V``: the kernels of a chunk are
  never centered, only multiplied (a BLAS GEMM) with the centered targets.
* ``||K_bar||_F^2 = ||K||_F^2 - (2/n) ||K 1||^2 + (1^T K 1)^2 / n^2``: the norm
  needs the row sums and the sum of squares, not the centered matrix.

NOCCO (seed 004 §2.6) replaces ``K_bar`` with ``K_bar (K_bar + eps n I)^{-1}``,
which has no such shortcut: a chunk is centered and transformed explicitly.

Blocking (block HSIC Lasso, Climente-Gonzalez et al. 2019, the reference
package): the samples are permuted, cut into blocks of ``B`` and every block
gets its own centered, normalized kernel; the design is the concatenation over
blocks and permutations scaled by ``sqrt(1 / (n_blocks M))``. Plain HSIC Lasso
is one block holding every sample.
"""

from __future__ import annotations

import numpy as np
from joblib import Parallel, delayed

from ._kernels import center_gram

__all__ = ["KernelDesign", "make_blocks", "pyhsiclasso_permutations", "covariate_gram",
           "design_memory", "prefetch_sizes"]

# below this share of ||K||_F^2 a block's centered kernel counts as zero (a column
# constant inside the block); its design entries are set to 0 instead of rounding noise
_ZERO_NORM = 1e-6
_NORM_EPS = 1e-9  # the reference package's guard in ||K_bar|| + eps
# a pass of Gram columns prefetches twice as many as the pass before, up to this many:
# at ~64 targets the GEMM of a pass costs about as much as computing the kernels
PREFETCH_GROWTH_CAP = 64


def prefetch_sizes(prefetch: int):
    """Columns prefetched by the successive Gram-column passes of :class:`KernelDesign`.

    ``prefetch``, then doubling with every pass up to ``max(prefetch,
    PREFETCH_GROWTH_CAP)`` (a long LARS path keeps asking for columns; a pass
    costs a kernel computation over every feature whatever its size). An
    infinite generator; ``prefetch = 0`` gives zeros.
    """
    p, top = int(prefetch), max(int(prefetch), PREFETCH_GROWTH_CAP)
    while True:
        yield p
        p = min(2 * p, top)


def column_passes(k: int, prefetch: int, max_batch: int) -> int:
    """Gram-column passes that serve ``k`` columns when every prefetched one is used."""
    done = passes = 0
    for p in prefetch_sizes(prefetch):
        if done >= k:
            return passes
        done += max(1, min(1 + p, max_batch))
        passes += 1


def pyhsiclasso_permutations(n_samples: int, n_permutations: int) -> np.ndarray:
    """The sample permutations ``pyHSICLasso`` 1.4.2 uses for block HSIC Lasso.

    The reference seeds NumPy's global generator with ``m`` and permutes the
    previous permutation, for ``m = 0..M-1``. This function reproduces them
    without touching the global generator, so that ours and the reference can
    be compared on identical blocks (pass the result as ``permutations=``).

    Parameters
    ----------
    n_samples : int
    n_permutations : int

    Returns
    -------
    permutations : ndarray of int, shape (n_permutations, n_samples)
    """
    index = np.arange(n_samples)
    out = []
    for m in range(n_permutations):
        index = np.random.RandomState(m).permutation(index)
        out.append(index)
    return np.array(out, dtype=np.intp).reshape(n_permutations, n_samples)


def make_blocks(n_samples: int, block_size: int, n_permutations: int, permutations, rng):
    """Sample indices of every block: an int array of shape (n_groups, block).

    ``block_size = 0`` gives one block of all samples in their order (plain
    HSIC Lasso); ``block_size >= n_samples`` one block of all samples in the
    order of the first permutation (the same HSIC values). Otherwise each of the
    ``M`` permutations is cut into ``n_samples // block_size`` blocks; the last
    ``n_samples % block_size`` samples of each permutation are left out, as the
    reference does. With a single block ``M`` is 1 (reference behaviour).

    Parameters
    ----------
    n_samples, block_size, n_permutations : int
    permutations : array-like of shape (M, n_samples) or None
        Explicit permutations; their number overrides ``n_permutations``.
    rng : numpy.random.RandomState
        Draws the permutations when ``permutations`` is None.

    Returns
    -------
    blocks : ndarray of int, shape (n_blocks * M, B)
    perms : ndarray of int, shape (M, n_samples) or None

    Raises
    ------
    ValueError
        Explicit permutations of the wrong shape or that are not permutations.
    """
    B = min(int(block_size), n_samples)
    if B == 0:
        return np.arange(n_samples)[None, :], None
    n_blocks = n_samples // B
    if permutations is not None:
        perms = np.asarray(permutations)
        if perms.ndim == 1:
            perms = perms[None, :]
        if perms.ndim != 2 or perms.shape[1] != n_samples:
            raise ValueError(f"permutations must have shape (M, {n_samples}); got {perms.shape}.")
        ok = (np.sort(perms, axis=1) == np.arange(n_samples)).all()
        if not ok:
            raise ValueError("Each row of permutations must be a permutation of 0..n_samples-1.")
        perms = perms.astype(np.intp)
    else:
        M = int(n_permutations) if n_blocks > 1 else 1
        perms = np.array([rng.permutation(n_samples) for _ in range(M)], dtype=np.intp)
    if n_blocks == 1:
        perms = perms[:1]
    blocks = perms[:, : n_blocks * B].reshape(-1, B)
    return blocks, perms


def design_memory(n_samples: int, n_features: int, n_groups: int, block: int, *,
                  measure: str = "hsic", itemsize: int = 4, batch: int = 1,
                  chunk_size: int | None = None, cached_columns: int = 0) -> int:
    """Peak bytes :class:`KernelDesign` allocates for a table of this shape.

    The sum of the standardized copy of ``X`` (float64, then ``dtype``), the
    larger of the output-kernel phase (``L`` in float64 with its temporaries,
    cast to ``dtype``, cut in tiles) and a Gram-column pass of ``batch`` columns
    (each an explicit float64 kernel plus its ``dtype`` copies), the working
    set of one chunk of features (NOCCO: ``chunk_size`` explicit transformed
    kernels; HSIC: ~1 MB tiles) and the cached Gram columns. ``P = n_groups *
    block**2`` entries make one feature's kernel over all blocks.

    Parameters
    ----------
    n_samples, n_features, n_groups, block : int
        Rows, columns, blocks (over all permutations) and rows per block.
    measure : {"hsic", "nocco"}, default="hsic"
    itemsize : int, default=4
        Bytes of the streamed dtype (float32: 4).
    batch : int, default=1
        Gram columns computed in one pass.
    chunk_size : int or None, default=None
        Features per chunk (None: as :class:`KernelDesign` chooses).
    cached_columns : int, default=0
        Gram columns kept (``n_features`` float64 each).

    Returns
    -------
    bytes : int
    """
    P = float(n_groups) * block * block
    s = int(itemsize)
    temps = 6 if measure == "nocco" else 2  # float64 temporaries of one explicit kernel
    tiles = 2 * P * s if n_groups == 1 and measure != "nocco" else P * s
    y_phase = (1 + temps) * P * 8 + tiles
    col_phase = batch * (P * 8 + P * s + (P * s if n_groups == 1 and measure != "nocco" else 0)) \
        + temps * P * 8
    if measure == "nocco":
        c = _nocco_chunk(n_groups, block, chunk_size)
        chunk = 6 * c * P * 8
    else:
        chunk = 4 << 20
    return int(n_features * n_samples * (8 + s) + max(y_phase, col_phase) + chunk
               + cached_columns * n_features * 8)


def _nocco_chunk(n_groups: int, block: int, chunk_size) -> int:
    """Features per NOCCO chunk: the given size, else as many as keep ~64 MB of kernels."""
    if chunk_size is not None:
        return int(chunk_size)
    return int(max(1, min(8, (64 << 20) // (6 * 8 * n_groups * block * block))))


def _nocco(Kc: np.ndarray, epsilon: float, normalize: bool = False) -> np.ndarray:
    """``K_bar (K_bar + eps B I)^{-1}`` of a stack of centered Gram matrices (float64);
    ``normalize``: of ``K_bar / ||K_bar||_F`` instead (the ``epsilon_scale="frobenius"``
    of :class:`featsieve.kernel.NOCCOLasso`)."""
    B = Kc.shape[-1]
    if normalize:
        nrm = np.sqrt((Kc * Kc).sum(axis=(-2, -1), keepdims=True))
        Kc = Kc / np.where(nrm > 0, nrm, 1.0)
    A = Kc + (epsilon * B) * np.eye(B)
    T = np.linalg.solve(A, Kc)
    return 0.5 * (T + np.swapaxes(T, -1, -2))


def covariate_gram(C, blocks, kernel: str = "gaussian") -> np.ndarray:
    """Centered Gram matrix of covariates ``C`` (n, c) in every block: (G, B, B).

    The definition of pyHSICLasso 1.4.2's ``covars``: ``"gaussian"`` divides
    all covariates by one common standard deviation (of every entry of ``C``)
    and uses ``exp(-||c_i - c_j||^2 / (2 c))`` (width ``sqrt(c)``);
    ``"delta"`` is the normalized delta kernel (``1/n_a`` for two rows of the
    same category ``a``, counted in the block) where, for several covariates,
    a category is a distinct row of ``C`` (the reference pools the values of
    all covariates instead; the two agree for one covariate).
    """
    C = np.asarray(C, dtype=np.float64)
    if C.ndim == 1:
        C = C[:, None]
    blocks = np.asarray(blocks, dtype=np.intp)
    if kernel == "gaussian":
        sd = C.std()
        Z = C / (sd if sd > 0 else 1.0)
        Zb = Z[blocks]  # (G, B, c)
        sq = (Zb * Zb).sum(axis=-1)
        d2 = sq[:, :, None] + sq[:, None, :] - 2.0 * np.matmul(Zb, Zb.transpose(0, 2, 1))
        K = np.exp(-np.maximum(d2, 0.0) / (2.0 * C.shape[1]))
    else:
        codes = np.unique(C, axis=0, return_inverse=True)[1].ravel()[blocks]  # (G, B)
        same = codes[:, :, None] == codes[:, None, :]
        K = same / same.sum(axis=-1, keepdims=True)
    return center_gram(K)


class KernelDesign:
    """Feature-wise kernel design of ``(X, y)`` computed on demand.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    kernel_x, kernel_y : kernel objects
        See :mod:`featsieve.kernel._kernels`.
    blocks : ndarray of int, shape (n_groups, B)
        From :func:`make_blocks`.
    measure : {"hsic", "nocco"}, default="hsic"
    epsilon : float, default=1e-3
        NOCCO's regularization.
    nocco_normalize : bool, default=False
        Regularize the Frobenius-normalized centered Gram matrices instead.
    dtype : {np.float32, np.float64}, default=np.float32
        Precision of the streamed kernels (the targets and all sums that
        LARS sees are float64).
    chunk_size : int or None, default=None
        Features per chunk; None: NOCCO's explicit kernels near 64 MB, HSIC's
        kernels in tiles of ~1 MB (at least 8 features a chunk with one block).
    prefetch : int, default=16
        Extra Gram columns computed in the first pass of Gram columns, for the
        features most likely to be asked for next (``hint``); each further pass
        prefetches twice as many, up to ``max(prefetch, PREFETCH_GROWTH_CAP)``
        (64). Only the number of passes depends on it, not the columns.
    n_jobs : int or None, default=None
        Chunks computed in parallel threads (results identical for any value).
    max_batch : int or None, default=None
        Most Gram columns computed in one pass (prefetched ones included); the
        memory of a pass grows with it (:func:`design_memory`). None: no limit.
    covariate_gram : ndarray of shape (G, B, B) or None, default=None
        Centered Gram matrix of the covariates in every block (see
        :func:`covariate_gram`). When given, the part of the output kernel
        explained by it is removed from ``h`` (pyHSICLasso's ``covars``): with
        ``L`` and ``C`` the normalized, block-scaled output and covariate
        designs, ``beta = <L, C> / <C, C>`` and ``h_k = <K_k, L - beta C>``.

    Attributes
    ----------
    h : ndarray of shape (n_features,)
        Normalized HSIC (or NOCCO) of each feature with ``y``: the Lasso's
        ``X^T y`` (seed 004 eq. (4)).
    hsic_raw : ndarray of shape (n_features,)
        Unnormalized ``tr(K_bar L_bar)`` averaged over blocks.
    covariate_beta : float or None
        ``beta`` of the covariates (None without covariates).
    n_passes : int
        Passes over all features (kernel recomputations).
    n_kernel_evaluations : int
        Kernel entries of the design computed (a pass counts every entry of
        every feature's kernels, also where symmetry spares half of them).
    """

    def __init__(self, X, y, *, kernel_x, kernel_y, blocks, measure="hsic", epsilon=1e-3,
                 dtype=np.float32, chunk_size=None, prefetch=16, n_jobs=None,
                 covariate_gram=None, nocco_normalize=False, max_batch=None):
        self.kx, self.ky = kernel_x, kernel_y
        self.blocks = np.asarray(blocks, dtype=np.intp)
        self.G, self.B = self.blocks.shape
        self.P = self.B * self.B
        self.measure = measure
        self.epsilon = float(epsilon)
        self.nocco_normalize = bool(nocco_normalize)
        self.dtype = np.dtype(dtype)
        self.prefetch = int(prefetch)
        self.max_batch = None if max_batch is None else max(1, int(max_batch))
        self.n_jobs = n_jobs
        self.Z = np.ascontiguousarray(kernel_x.standardize(X).astype(self.dtype))  # (d, n)
        self.d = self.Z.shape[0]
        if chunk_size is None and measure == "nocco":  # explicit kernels: bounded memory
            chunk_size = _nocco_chunk(self.G, self.B, None)
        elif chunk_size is None:  # tiles of ~1 MB stay in cache (see _chunk); one small
            # block: as many features as fill the tile (fewer, larger GEMMs)
            chunk_size = int(max(1, min(64, (1 << 18) // (self.G * self.P))))
            if self.G == 1:
                chunk_size = max(8, chunk_size)
        self.chunk_size = int(chunk_size)
        # one block small enough that a chunk's whole triangle fits a ~1 MB tile: passes
        # without norms evaluate the kernel on the pairs i < j only (and the diagonal)
        npairs = self.B * (self.B - 1) // 2
        self._pairs = np.triu_indices(self.B, 1) if (
            self.G == 1 and measure != "nocco" and self.B > 1
            and self.chunk_size * npairs <= 1 << 18) else None
        self.n_passes = 0
        self.n_kernel_evaluations = 0
        self._cache: dict[int, np.ndarray] = {}
        self._column_passes = 0  # Gram-column passes with prefetching so far
        self.covariate_beta = None
        if y is None:  # raw passes only (forward HSIC)
            self.wx = self.wy = self.h = self.hsic_raw = None
            return
        zy = kernel_y.standardize(np.asarray(y).reshape(-1, 1))
        Ly = self._explicit(zy, kernel_y)  # (1, G, P) float64
        ny = np.sqrt((Ly * Ly).sum(axis=-1))
        self.wy = self._weights(ny, ny)[0]  # (G,)
        V = Ly
        if covariate_gram is not None:
            Lc = np.asarray(covariate_gram, dtype=np.float64).reshape(1, self.G, self.P)
            nc = np.sqrt((Lc * Lc).sum(axis=-1))
            wc = self._weights(nc, nc)[0]
            V = np.concatenate([Ly, Lc])
        norms, raw = self._scan(V.astype(self.dtype), need_norms=True)
        self.wx = norms  # (d, G) weights
        self.hsic_raw = raw[:, :, 0].mean(axis=1)
        self.h = (self.wx * self.wy[None, :] * raw[:, :, 0]).sum(axis=1)
        if covariate_gram is not None:
            cc = float((wc * wc * (Lc[0] * Lc[0]).sum(axis=-1)).sum())
            beta = float((self.wy * wc * (Ly[0] * Lc[0]).sum(axis=-1)).sum()) / cc if cc > 0 \
                else 0.0
            self.h = self.h - beta * (self.wx * wc[None, :] * raw[:, :, 1]).sum(axis=1)
            self.covariate_beta = beta

    # ----------------------------------------------------------- helpers
    def _weights(self, norms, ok_scale):
        w = np.sqrt(1.0 / self.G) / (norms + _NORM_EPS)
        return np.where(ok_scale > 0, w, 0.0)

    def _explicit(self, z_rows: np.ndarray, kernel) -> np.ndarray:
        """Centered (NOCCO-transformed) kernels of rows ``z`` (m, n): (m, G, P) float64."""
        m = z_rows.shape[0]
        out = np.empty((m, self.G, self.P))
        for i in range(m):
            K = kernel.gram(np.asarray(z_rows[i], dtype=np.float64)[self.blocks])
            Kc = center_gram(K)
            if self.measure == "nocco":
                Kc = _nocco(Kc, self.epsilon, self.nocco_normalize)
            out[i] = Kc.reshape(self.G, self.P)
        return out

    def _chunk(self, lo, hi, V, need_norms):
        """Raw dots ``<K_k, V_m>`` per block (c, G, m) and norms of features lo..hi."""
        c = hi - lo
        z = self.Z[lo:hi][:, self.blocks]  # (c, G, B)
        if self.measure == "nocco":
            Kc = _nocco(center_gram(self.kx.gram(z.astype(np.float64))), self.epsilon,
                        self.nocco_normalize)
            norms = None
            if need_norms:
                fro2 = np.einsum("cgij,cgij->cgi", Kc, Kc).sum(axis=-1)
                norms = (np.sqrt(np.maximum(fro2, 0.0)), fro2 > 0)
            Kf = Kc.astype(self.dtype).reshape(c, self.G, self.P)
            raw = np.matmul(Kf.transpose(1, 0, 2), V.transpose(1, 2, 0)).transpose(1, 0, 2)
            return norms, raw.astype(np.float64)
        # HSIC: uncentered kernels against centered targets, in cache-sized tiles
        w = self.kx.weights(z)
        B, G = self.B, self.G
        m = V[0].shape[0] if isinstance(V, (list, tuple)) else V.shape[0]
        raw = np.zeros((c, G, m))
        rs = np.zeros((c, G, B)) if need_norms else None
        fro2 = np.zeros((c, G)) if need_norms else None
        tile = max(1, (1 << 18) // max(c * B * (B if G > 1 else 1), 1))  # ~1 MB of float32
        if G == 1 and isinstance(V, tuple):  # one small block: the pairs i < j, the diagonal
            iu, ju = self._pairs
            Vp, Vd = V
            zc = z[:, 0]
            Kt = self.kx.cross(zc[:, iu, None], zc[:, ju, None]).reshape(c, iu.size)
            Kd = self.kx.cross(zc[:, :, None], zc[:, :, None]).reshape(c, B)
            if w is not None:
                Kt *= w[:, 0, iu] * w[:, 0, ju]
                Kd *= w[:, 0] * w[:, 0]
            raw[:, 0, :] = Kt @ Vp.T
            raw[:, 0, :] += Kd @ Vd.T
        elif G == 1:  # one big block: the upper triangle, in tiles of rows (K is symmetric)
            tiles = self._row_tiles(self.chunk_size)
            buf = np.empty(c * (tiles[0][1] - tiles[0][0]) * B, dtype=self.dtype)
            for (r0, r1), Vt in zip(tiles, V, strict=True):
                rr, nc = r1 - r0, B - r0
                out = buf[: c * rr * nc].reshape(c, rr, nc)
                Kt = self.kx.cross(z[:, 0, r0:r1], z[:, 0, r0:], out=out)
                if w is not None:
                    Kt *= w[:, 0, r0:r1, None] * w[:, 0, None, r0:]
                raw[:, 0, :] += Kt.reshape(c, rr * nc) @ Vt.T
                if need_norms:
                    rs[:, 0, r0:r1] += Kt.sum(axis=-1)
                    off = Kt[:, :, rr:]
                    rs[:, 0, r1:] += off.sum(axis=-2)
                    fro2[:, 0] += np.einsum("cij,cij->c", Kt, Kt) + np.einsum("cij,cij->c", off, off)
        else:  # many small blocks: tiles of blocks
            buf = np.empty((c, min(tile, G), B, B), dtype=self.dtype)
            for g0 in range(0, G, tile):
                g1 = min(g0 + tile, G)
                zg = z[:, g0:g1]
                Kt = self.kx.cross(zg, zg, out=buf[:, : g1 - g0])
                if w is not None:
                    Kt *= w[:, g0:g1, :, None] * w[:, g0:g1, None, :]
                flat = Kt.reshape(c, g1 - g0, self.P)
                raw[:, g0:g1, :] = np.matmul(flat.transpose(1, 0, 2),
                                             V[:, g0:g1, :].transpose(1, 2, 0)).transpose(1, 0, 2)
                if need_norms:
                    rs[:, g0:g1] = Kt.sum(axis=-1)
                    fro2[:, g0:g1] = np.einsum("cgij,cgij->cg", Kt, Kt)
        norms = None
        if need_norms:
            nrm2 = fro2 - 2.0 * (rs * rs).sum(axis=-1) / B + rs.sum(axis=-1) ** 2 / self.P
            norms = (np.sqrt(np.maximum(nrm2, 0.0)), nrm2 > _ZERO_NORM * fro2)
        return norms, raw

    def _row_tiles(self, c):
        tile = max(1, (1 << 18) // max(c * self.B, 1))
        return [(r0, min(r0 + tile, self.B)) for r0 in range(0, self.B, tile)]

    def _upper_tiles(self, V):
        """Targets cut like the kernel tiles of one big block: the diagonal tile as is,
        the part right of it doubled (it stands for the lower triangle too)."""
        m, B = V.shape[0], self.B
        V2 = V.reshape(m, B, B)
        out = []
        for r0, r1 in self._row_tiles(self.chunk_size):
            T = np.array(V2[:, r0:r1, r0:], dtype=self.dtype)
            T[:, :, r1 - r0:] *= 2
            out.append(T.reshape(m, -1))
        return out

    def scan(self, V) -> np.ndarray:
        """Raw ``<K_k, V_m>`` for every feature and block: (d, G, m); ``V`` (m, G, B*B) symmetric."""
        return self._scan(np.asarray(V), need_norms=False)[1]

    def _scan(self, V, need_norms=False):
        """One pass over all features: raw dots (d, G, m) (and norms -> weights (d, G))."""
        V = np.ascontiguousarray(V, dtype=self.dtype)
        if self.G == 1 and self.measure != "nocco" and self._pairs is not None \
                and not need_norms:  # (targets at pairs i < j, doubled; the diagonal)
            iu, ju = self._pairs
            V2 = V.reshape(V.shape[0], self.B, self.B)
            V = (np.ascontiguousarray(2 * V2[:, iu, ju]), np.ascontiguousarray(
                V2[:, np.arange(self.B), np.arange(self.B)]))
        elif self.G == 1 and self.measure != "nocco":
            V = self._upper_tiles(V)
        bounds = [(lo, min(lo + self.chunk_size, self.d)) for lo in range(0, self.d, self.chunk_size)]
        if self.n_jobs in (None, 1) or len(bounds) == 1:
            res = [self._chunk(lo, hi, V, need_norms) for lo, hi in bounds]
        else:
            res = Parallel(n_jobs=self.n_jobs, prefer="threads")(
                delayed(self._chunk)(lo, hi, V, need_norms) for lo, hi in bounds)
        self.n_passes += 1
        self.n_kernel_evaluations += self.d * self.G * self.P
        raw = np.concatenate([r[1] for r in res], axis=0)
        if not need_norms:
            return None, raw
        nrm = np.concatenate([r[0][0] for r in res], axis=0)
        ok = np.concatenate([r[0][1] for r in res], axis=0)
        return self._weights(nrm, ok.astype(float)), raw

    # ------------------------------------------------------------ public
    @property
    def n_columns(self) -> int:
        """Gram columns computed so far."""
        return len(self._cache)

    def columns(self, idx, hint=None) -> np.ndarray:
        """Gram columns ``G[:, idx]`` of the normalized design, shape (d, len(idx)).

        Missing columns are computed in one pass, together with more for the
        features with the largest ``hint`` (e.g. the current LARS correlations)
        that are not cached yet: ``prefetch`` in the first pass, twice as many
        in each further one (:func:`prefetch_sizes`), within ``max_batch``.
        The columns returned do not depend on the prefetching.
        """
        idx = [int(j) for j in idx]
        missing = [j for j in dict.fromkeys(idx) if j not in self._cache]
        extra = 0
        if missing and hint is not None and self.prefetch > 0:
            extra = min(self.prefetch << min(self._column_passes, 30),
                        max(self.prefetch, PREFETCH_GROWTH_CAP))
            self._column_passes += 1
        cap = self.max_batch or len(missing) + extra
        while len(missing) > cap:  # more than a pass may hold: several passes
            self._compute(missing[:cap])
            missing = missing[cap:]
        if missing:
            batch = list(missing)
            if extra > 0:
                taken = set(batch)
                for j in np.argsort(-np.asarray(hint), kind="stable"):
                    if len(batch) >= min(len(missing) + extra, cap):
                        break
                    j = int(j)
                    if j not in self._cache and j not in taken:
                        batch.append(j)
                        taken.add(j)
            self._compute(batch)
        if not idx:
            return np.empty((self.d, 0))
        return np.column_stack([self._cache[j] for j in idx])

    def _compute(self, batch):
        """Gram columns of ``batch`` in one pass, into the cache."""
        V = self._explicit(self.Z[batch].astype(np.float64), self.kx)
        _, raw = self._scan(V)
        del V
        cols = np.einsum("dg,dgm,mg->dm", self.wx, raw, self.wx[batch])
        for t, j in enumerate(batch):
            self._cache[j] = cols[:, t]

    def full_gram(self, batch_bytes: int = 256 << 20) -> np.ndarray:
        """The whole d x d Gram matrix (for the d x d baselines), in batches of columns."""
        per = self.G * self.P * 8
        step = int(max(1, batch_bytes // max(per, 1)))
        saved, self.prefetch = self.prefetch, 0
        try:
            for lo in range(0, self.d, step):
                todo = [j for j in range(lo, min(lo + step, self.d)) if j not in self._cache]
                if todo:
                    self.columns(todo)
        finally:
            self.prefetch = saved
        Gm = self.columns(range(self.d))
        return 0.5 * (Gm + Gm.T)
