"""Geometry shared by the path tests."""
from __future__ import annotations

import math

import numpy as np


def fit_circle(xy: np.ndarray) -> tuple[float, float, float]:
    """Least-squares circle (Kasa fit) through points ``xy`` [m]: (radius, cx, cy) [m]."""
    x, y = xy[:, 0], xy[:, 1]
    a = np.c_[2.0 * x, 2.0 * y, np.ones_like(x)]
    cx, cy, c = np.linalg.lstsq(a, x * x + y * y, rcond=None)[0]
    return math.sqrt(c + cx * cx + cy * cy), cx, cy
