"""Terrain and surfaces (gaps.md "Chassis", "Tyre and Soil").

A terrain is a height function over the odom (ENU) plane with a surface at
each point. :meth:`Terrain.height_normal_surface` returns
``(z_m, nx, ny, nz, surface_index)`` with the unit ground normal (world
frame) and the index of the surface in the parameter file's surface table
(after :meth:`Terrain.bind`).

* :class:`FlatTerrain`: a plane through (0, 0, z0) with a grade (rise in +x,
  percent) and a bank (rise in +y, percent): ``z = z0 + g x + b y``.
* :class:`HeightMapTerrain`: a grid of heights (a 2-D array or a ``.npy``
  file, rows along y, columns along x) with a resolution and an origin;
  bilinear height, normal from the bilinear gradient of the cell.
* Regions (:class:`Region`): rectangles or polygons with their own surface,
  first match wins, else the terrain's default surface.
* ``wheel_surfaces``: a fixed surface per wheel (0 FL, 1 FR, 2 RL, 3 RR) for
  test stands; ``None`` entries use the map.

After :meth:`Terrain.bind` a terrain is also plain data, ``Terrain.data``
(``TerrainData``: floats, ints, the grid and the regions as flat arrays), and
:func:`query` is the one implementation of the height, normal and surface,
compiled with the step (_jit.py); the methods call it.
"""
from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ._jit import array, int_array, njit

__all__ = ["Region", "Terrain", "FlatTerrain", "HeightMapTerrain", "query", "probe", "region_surface",
           "point_in_polygon"]

# TerrainData = (fp, ip, grid, region_kind, region_surface, region_rect, polygon_xy, polygon_start):
# fp = (z0, grade, bank, nx, ny, nz, x0, y0, 1/resolution) of the plane or the grid,
# ip = (kind 0 plane / 1 grid, default surface, number of regions, grid columns, grid rows, fixed surface of
# wheels 0..3 or -1); grid heights row-major; regions: kind 0 rectangle (x_min, y_min, x_max, y_max in
# region_rect) or 1 polygon (vertices polygon_xy[2 start .. 2 end) as x, y pairs).
KIND_PLANE = 0
KIND_GRID = 1


@njit
def point_in_polygon(xy, start, end, x, y):
    """Even-odd rule for the polygon of vertices ``xy[2 start:2 end]`` (x, y pairs)."""
    inside = False
    xj, yj = xy[2 * end - 2], xy[2 * end - 1]
    for i in range(start, end):
        xi, yi = xy[2 * i], xy[2 * i + 1]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        xj, yj = xi, yi
    return inside


@njit
def region_surface(td, x, y):
    """Surface index at (x, y) [m]: the first region that contains the point, else the default."""
    fp, ip, grid, rkind, rsurf, rrect, pxy, pstart = td
    for i in range(ip[2]):
        if rkind[i] == 0:
            if rrect[4 * i] <= x <= rrect[4 * i + 2] and rrect[4 * i + 1] <= y <= rrect[4 * i + 3]:
                return rsurf[i]
        elif point_in_polygon(pxy, pstart[i], pstart[i + 1], x, y):
            return rsurf[i]
    return ip[1]


@njit
def query(td, x_m, y_m):
    """(z [m], nx, ny, nz, surface_index) at (x, y) in odom (see :class:`Terrain`)."""
    fp, ip, z, rkind, rsurf, rrect, pxy, pstart = td
    idx = region_surface(td, x_m, y_m) if ip[2] > 0 else ip[1]
    if ip[0] == KIND_PLANE:
        return fp[0] + fp[1] * x_m + fp[2] * y_m, fp[3], fp[4], fp[5], idx
    # bilinear height map; outside the grid the edge values continue
    inv = fp[8]
    gx = (x_m - fp[6]) * inv
    gy = (y_m - fp[7]) * inv
    ncol = ip[3]
    nx1 = ncol - 1
    ny1 = ip[4] - 1
    edge_x = gx < 0.0 or gx > nx1
    edge_y = gy < 0.0 or gy > ny1
    gx = 0.0 if gx < 0.0 else nx1 if gx > nx1 else gx
    gy = 0.0 if gy < 0.0 else ny1 if gy > ny1 else gy
    ix = int(gx)
    iy = int(gy)
    if ix >= nx1:
        ix = nx1 - 1
    if iy >= ny1:
        iy = ny1 - 1
    tx = gx - ix
    ty = gy - iy
    z00 = z[iy * ncol + ix]
    z10 = z[iy * ncol + ix + 1]
    z01 = z[(iy + 1) * ncol + ix]
    z11 = z[(iy + 1) * ncol + ix + 1]
    h = (1.0 - ty) * ((1.0 - tx) * z00 + tx * z10) + ty * ((1.0 - tx) * z01 + tx * z11)
    dzdx = 0.0 if edge_x else ((1.0 - ty) * (z10 - z00) + ty * (z11 - z01)) * inv
    dzdy = 0.0 if edge_y else ((1.0 - tx) * (z01 - z00) + tx * (z11 - z10)) * inv
    n = 1.0 / math.sqrt(1.0 + dzdx * dzdx + dzdy * dzdy)
    return h, -dzdx * n, -dzdy * n, n, idx


@njit(inline=True)
def probe(td, px, py, pz, dx, dy, dz, iterations):
    """Ground probe: the ray from the mount (px, py, pz) along the unit direction (dx, dy, dz) (odom).

    On a plane the intersection is exact; on a height map it is refined by
    ``iterations`` (``chassis.probe_iterations``) re-linearisations at the
    last hit point (Newton on the ray parameter).

    Returns
    -------
    (t [m] along the ray (1e9: no ground ahead, or the mount below the ground), nx, ny, nz, surface_index)
    """
    zg, nx, ny, nz, si = query(td, px, py)
    nd = nx * dx + ny * dy + nz * dz
    if nd >= -1e-6:
        return 1e9, nx, ny, nz, si
    t = nz * (zg - pz) / nd
    if td[1][0] != KIND_PLANE:
        for _ in range(iterations):
            cx = px + t * dx
            cy = py + t * dy
            zg, nx, ny, nz, si = query(td, cx, cy)
            nd = nx * dx + ny * dy + nz * dz
            if nd >= -1e-6:
                return 1e9, nx, ny, nz, si
            t = (nx * (cx - px) + ny * (cy - py) + nz * (zg - pz)) / nd
    if t < 0.0:
        t = 1e9  # the mount is below the ground (body fallen through): no wheel contact
    return t, nx, ny, nz, si


@dataclass(frozen=True)
class Region:
    """A region with its own surface.

    Parameters
    ----------
    surface : str
        Surface name of the parameter file's table.
    rect : tuple of 4 float, optional
        (x_min, y_min, x_max, y_max) [m] in odom.
    polygon : sequence of (x, y), optional
        Vertices [m] in odom (even-odd rule).
    """

    surface: str
    rect: tuple | None = None
    polygon: tuple | None = None

    def __post_init__(self) -> None:
        if (self.rect is None) == (self.polygon is None):
            raise ValueError("a Region needs exactly one of rect or polygon")
        if self.polygon is not None:
            object.__setattr__(self, "polygon", tuple((float(x), float(y)) for x, y in self.polygon))
            if len(self.polygon) < 3:
                raise ValueError("a polygon needs at least 3 vertices")
            object.__setattr__(self, "_xy", array([c for xy in self.polygon for c in xy]))

    def contains(self, x: float, y: float) -> bool:
        """True when (x, y) [m] is inside the region."""
        if self.rect is not None:
            x0, y0, x1, y1 = self.rect
            return x0 <= x <= x1 and y0 <= y <= y1
        return point_in_polygon(self._xy, 0, len(self.polygon), float(x), float(y))


class Terrain:
    """Base class: surfaces, regions and per-wheel fixed surfaces.

    Parameters
    ----------
    surface : str
        Default surface name.
    regions : sequence of Region
    wheel_surfaces : sequence of 4 (str or None), optional
        Fixed surface of each wheel (test stand), overriding the map.
    """

    is_plane = False

    def __init__(self, surface: str = "asphalt", regions: Sequence[Region] = (),
                 wheel_surfaces: Sequence | None = None) -> None:
        self.surface = surface
        self.regions = tuple(regions)
        self.wheel_surfaces = tuple(wheel_surfaces) if wheel_surfaces is not None else (None,) * 4
        if len(self.wheel_surfaces) != 4:
            raise ValueError("wheel_surfaces needs 4 entries (FL, FR, RL, RR)")
        self._default_index = 0
        self._region_index: tuple = ()
        self.wheel_surface_index = (-1, -1, -1, -1)
        self._bound = False

    def bind(self, surface_names: Sequence[str]) -> None:
        """Resolve surface names to indices of the parameter file's table.

        Raises
        ------
        KeyError
            For a surface name not in ``surface_names``.
        """
        names = list(surface_names)

        def idx(name: str) -> int:
            if name not in names:
                close = difflib.get_close_matches(str(name).lower(), names, 1, 0.6)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise KeyError(f"unknown surface {name!r}{hint}; known: {', '.join(names)}")
            return names.index(name)

        self._default_index = idx(self.surface)
        self._region_index = tuple((r, idx(r.surface)) for r in self.regions)
        self.wheel_surface_index = tuple(-1 if s is None else idx(s) for s in self.wheel_surfaces)
        self._bound = True
        self._build_data()

    def _shape(self) -> tuple:
        """(kind, fp, grid, columns, rows) of the height function (subclasses)."""
        raise NotImplementedError

    def _build_data(self) -> None:
        kind, fp, grid, ncol, nrow = self._shape()
        rkind, rsurf, rect, xy, start = [], [], [], [], [0]
        for region, i in self._region_index:
            rsurf.append(i)
            if region.rect is not None:
                rkind.append(0)
                rect.extend(float(v) for v in region.rect)
            else:
                rkind.append(1)
                rect.extend((0.0, 0.0, 0.0, 0.0))
                xy.extend(c for p in region.polygon for c in p)
            start.append(len(xy) // 2)
        ip = [kind, self._default_index, len(rkind), ncol, nrow] + list(self.wheel_surface_index)
        self.data = (array(fp), int_array(ip), array(grid), int_array(rkind + [0]), int_array(rsurf + [0]),
                     array(rect + [0.0] * 4), array(xy + [0.0, 0.0]), int_array(start))

    def set_wheel_surface(self, wheel: int, surface: str | None, surface_names: Sequence[str]) -> None:
        """Pin wheel ``wheel`` (0..3) to ``surface`` (None: use the map)."""
        ws = list(self.wheel_surfaces)
        ws[wheel] = surface
        self.wheel_surfaces = tuple(ws)
        self.bind(surface_names)

    def _ensure_data(self) -> None:
        if not self._bound:
            # unbound: surfaces not resolved yet, the default index is 0
            self._region_index = ()
            self._build_data()

    def surface_index(self, x: float, y: float) -> int:
        """Index of the surface at (x, y) [m]."""
        self._ensure_data()
        return int(region_surface(self.data, float(x), float(y)))

    def height_normal_surface(self, x_m: float, y_m: float) -> tuple:
        """(z [m], nx, ny, nz, surface_index) at (x, y) in odom."""
        self._ensure_data()
        z, nx, ny, nz, i = query(self.data, float(x_m), float(y_m))
        return z, nx, ny, nz, int(i)

    def height_m(self, x_m: float, y_m: float) -> float:
        """Ground height z [m] at (x, y)."""
        return self.height_normal_surface(x_m, y_m)[0]


class FlatTerrain(Terrain):
    """Level or inclined plane ``z = z0 + (grade/100) x + (bank/100) y``.

    Parameters
    ----------
    grade_pct : float
        Rise along +x [%] (a vehicle facing +x climbs for positive values).
    bank_pct : float
        Rise along +y [%].
    surface, regions, wheel_surfaces :
        See :class:`Terrain`.
    z0_m : float
        Height at the origin [m].
    """

    is_plane = True

    def __init__(self, grade_pct: float = 0.0, bank_pct: float = 0.0, surface: str = "asphalt",
                 regions: Sequence[Region] = (), wheel_surfaces: Sequence | None = None,
                 z0_m: float = 0.0) -> None:
        super().__init__(surface, regions, wheel_surfaces)
        self.grade_pct = float(grade_pct)
        self.bank_pct = float(bank_pct)
        self.z0_m = float(z0_m)
        self._gx = self.grade_pct / 100.0
        self._gy = self.bank_pct / 100.0
        inv = 1.0 / math.sqrt(1.0 + self._gx * self._gx + self._gy * self._gy)
        self._n = (-self._gx * inv, -self._gy * inv, inv)

    def _shape(self) -> tuple:
        n = self._n
        return KIND_PLANE, [self.z0_m, self._gx, self._gy, n[0], n[1], n[2], 0.0, 0.0, 0.0], [0.0], 0, 0


class HeightMapTerrain(Terrain):
    """Height-map grid with bilinear height and normal.

    Parameters
    ----------
    heights : 2-D array-like or str or Path
        Heights [m], ``heights[iy][ix]`` at ``(x0 + ix res, y0 + iy res)``;
        a path loads a ``.npy`` file.
    resolution_m : float
        Grid spacing [m].
    origin_m : tuple of 2 float
        (x0, y0) of ``heights[0][0]`` [m].
    surface, regions, wheel_surfaces :
        See :class:`Terrain`.

    Outside the grid the edge values continue.
    """

    def __init__(self, heights, resolution_m: float, origin_m: tuple = (0.0, 0.0), surface: str = "asphalt",
                 regions: Sequence[Region] = (), wheel_surfaces: Sequence | None = None) -> None:
        super().__init__(surface, regions, wheel_surfaces)
        if isinstance(heights, (str, Path)):
            import numpy as np
            heights = np.load(heights)
        rows = [[float(v) for v in row] for row in heights]
        if len(rows) < 2 or len(rows[0]) < 2 or any(len(r) != len(rows[0]) for r in rows):
            raise ValueError("heights must be a rectangular grid of at least 2 x 2")
        if not all(math.isfinite(v) for r in rows for v in r):
            raise ValueError("heights must be finite")
        if not resolution_m > 0.0:
            raise ValueError("resolution_m must be > 0")
        self._z = rows
        self._ny = len(rows)
        self._nx = len(rows[0])
        self.resolution_m = float(resolution_m)
        self._inv = 1.0 / self.resolution_m
        self.origin_m = (float(origin_m[0]), float(origin_m[1]))

    def _shape(self) -> tuple:
        return (KIND_GRID, [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, self.origin_m[0], self.origin_m[1], self._inv],
                [v for row in self._z for v in row], self._nx, self._ny)
