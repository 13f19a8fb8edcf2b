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
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

__all__ = ["Region", "Terrain", "FlatTerrain", "HeightMapTerrain"]


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

    def contains(self, x: float, y: float) -> bool:
        """True when (x, y) [m] is inside the region."""
        if self.rect is not None:
            x0, y0, x1, y1 = self.rect
            return x0 <= x <= x1 and y0 <= y <= y1
        inside = False
        pts = self.polygon
        n = len(pts)
        xj, yj = pts[n - 1]
        for i in range(n):
            xi, yi = pts[i]
            if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                inside = not inside
            xj, yj = xi, yi
        return inside


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
                raise KeyError(f"unknown surface {name!r}; known: {', '.join(names)}")
            return names.index(name)

        self._default_index = idx(self.surface)
        self._region_index = tuple((r, idx(r.surface)) for r in self.regions)
        self.wheel_surface_index = tuple(-1 if s is None else idx(s) for s in self.wheel_surfaces)
        self._bound = True

    def set_wheel_surface(self, wheel: int, surface: str | None, surface_names: Sequence[str]) -> None:
        """Pin wheel ``wheel`` (0..3) to ``surface`` (None: use the map)."""
        ws = list(self.wheel_surfaces)
        ws[wheel] = surface
        self.wheel_surfaces = tuple(ws)
        self.bind(surface_names)

    def surface_index(self, x: float, y: float) -> int:
        """Index of the surface at (x, y) [m]."""
        for region, i in self._region_index:
            if region.contains(x, y):
                return i
        return self._default_index

    def height_normal_surface(self, x_m: float, y_m: float) -> tuple:
        """(z [m], nx, ny, nz, surface_index) at (x, y) in odom."""
        raise NotImplementedError

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

    def height_normal_surface(self, x_m: float, y_m: float) -> tuple:
        """(z, nx, ny, nz, surface_index); see :class:`Terrain`."""
        n = self._n
        idx = self.surface_index(x_m, y_m) if self._region_index else self._default_index
        return self.z0_m + self._gx * x_m + self._gy * y_m, n[0], n[1], n[2], idx


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

    def height_normal_surface(self, x_m: float, y_m: float) -> tuple:
        """(z, nx, ny, nz, surface_index); see :class:`Terrain`."""
        gx = (x_m - self.origin_m[0]) * self._inv
        gy = (y_m - self.origin_m[1]) * self._inv
        nx1 = self._nx - 1
        ny1 = self._ny - 1
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
        z = self._z
        z00 = z[iy][ix]
        z10 = z[iy][ix + 1]
        z01 = z[iy + 1][ix]
        z11 = z[iy + 1][ix + 1]
        h = (1.0 - ty) * ((1.0 - tx) * z00 + tx * z10) + ty * ((1.0 - tx) * z01 + tx * z11)
        dzdx = 0.0 if edge_x else ((1.0 - ty) * (z10 - z00) + ty * (z11 - z01)) * self._inv
        dzdy = 0.0 if edge_y else ((1.0 - tx) * (z01 - z00) + tx * (z11 - z10)) * self._inv
        inv = 1.0 / math.sqrt(1.0 + dzdx * dzdx + dzdy * dzdy)
        idx = self.surface_index(x_m, y_m) if self._region_index else self._default_index
        return h, -dzdx * inv, -dzdy * inv, inv, idx
