"""The bytes a call of a pipeline planned into an argument needs, asked of the
pipeline itself through Halide's bounds-query convention (Halide 21).

    bytes = arena_bytes(lambda arena: sharpen_ext.sharpen(image, arena, output))

calls the function once with, as the arena, a buffer with no memory: the
pipeline writes the bytes that call needs into it and runs nothing else.
Halide 21's Python extension passes an object's `_get_raw_halide_buffer_t()`
to the pipeline as it is, which is how the query buffer reaches it.
"""

import ctypes


class _Dimension(ctypes.Structure):
    _fields_ = [("min", ctypes.c_int32), ("extent", ctypes.c_int32), ("stride", ctypes.c_int32),
                ("flags", ctypes.c_uint32)]


class _Type(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _HalideBuffer(ctypes.Structure):
    """halide_buffer_t (HalideRuntime.h)."""
    _fields_ = [("device", ctypes.c_uint64), ("device_interface", ctypes.c_void_p), ("host", ctypes.c_void_p),
                ("flags", ctypes.c_uint64), ("type", _Type), ("dimensions", ctypes.c_int32),
                ("dim", ctypes.POINTER(_Dimension)), ("padding", ctypes.c_void_p)]


class ArenaQuery:
    """A uint8 buffer of one dimension and no memory (a bounds query)."""

    _UINT = 1  # halide_type_uint

    def __init__(self):
        self._dim = _Dimension(0, 0, 1, 0)
        self._buffer = _HalideBuffer(0, None, None, 0, _Type(self._UINT, 8, 1), 1, ctypes.pointer(self._dim), None)

    def _get_raw_halide_buffer_t(self):
        return ctypes.addressof(self._buffer)

    @property
    def extent(self):
        return self._dim.extent


def arena_bytes(call):
    """The bytes `call(arena)` needs: `call` runs once with a query as the arena.

    0 where the pipeline plans nothing into the argument (built without the
    `arena` feature, or no buffer planned): it then needs none.
    """
    query = ArenaQuery()
    call(query)
    return query.extent
