"""BMv2's Thrift values as the switch's API takes them, and back (thrift_standard.py): match
parameters, action data, entry handles, counter values, meter rates and register cells."""

from __future__ import annotations

from typing import Optional

from bm_runtime.standard.ttypes import (BmCounterValue, BmMatchParam, BmMatchParamExact, BmMatchParamLPM,
                                        BmMatchParamRange, BmMatchParamTernary, BmMatchParamType, BmMeterRateConfig,
                                        InvalidMeterOperation, InvalidRegisterOperation, InvalidTableOperation,
                                        MeterOperationErrorCode, RegisterOperationErrorCode, TableOperationErrorCode)

from p4odp.controlplane import wire
from p4odp.controlplane.thrift_switch import Cells
from p4odp.controlplane.wire import Reader

__all__ = ["i32", "bmv2_handle", "nbytes", "fits", "key_field", "match_param", "split_data", "counts", "counter_value",
           "meter_rates", "rate_configs", "register_value", "register_cell"]

# BMv2's match parameter type of each of the switch's match kinds.
_PARAM_TYPES = {"exact": BmMatchParamType.EXACT, "lpm": BmMatchParamType.LPM, "ternary": BmMatchParamType.TERNARY,
                "range": BmMatchParamType.RANGE, "optional": BmMatchParamType.TERNARY}


def i32(value: int) -> int:
    """A u32 (a member's or a group's id) as Thrift's i32, as BMv2 sends its unsigned handles; the
    switch's calls take its bit pattern back."""
    return value - (1 << 32) if value >> 31 else value


def bmv2_handle(handle: int) -> int:
    """The switch's entry handle (its index, and above bit 32 how many entries held that index
    before) as BMv2's: the index, and in the top 8 bits that count's low 8 bits."""
    return i32((handle >> 32 & 0xFF) << 24 | handle & 0xFFFFFF)


def nbytes(width: int) -> int:
    return (width + 7) // 8


def fits(value: Optional[bytes], width: int) -> Optional[int]:
    """A byte string's number when it fits in `width` bits; else None."""
    if not isinstance(value, bytes):
        return None
    number = int.from_bytes(value, "big")
    return None if number >> width else number


def key_field(key: wire.Key, param):
    """A key field's part of a wire.Match, from BMv2's match parameter; BAD_MATCH_KEY when it does
    not fit the field."""
    bad = InvalidTableOperation(TableOperationErrorCode.BAD_MATCH_KEY)
    if getattr(param, "type", None) != _PARAM_TYPES[key.kind]:
        raise bad
    width, top = key.width, (1 << key.width) - 1
    if key.kind == "exact":
        value = fits(param.exact and param.exact.key, width)
        if value is None:
            raise bad
        return value
    if key.kind == "lpm":
        value, length = fits(param.lpm and param.lpm.key, width), param.lpm and param.lpm.prefix_length
        if value is None or not isinstance(length, int) or not 0 <= length <= width:
            raise bad
        return value & (top ^ top >> length), length  # BMv2 keeps the prefix's bits only
    if key.kind == "range":
        low, high = (fits(param.range and getattr(param.range, end), width) for end in ("start", "end_"))
        if low is None or high is None or low > high:
            raise bad
        return low, high
    value, mask = (fits(param.ternary and getattr(param.ternary, part), width) for part in ("key", "mask"))
    if value is None or mask is None or key.kind == "optional" and mask not in (0, top):
        raise bad
    if key.kind == "ternary":
        return value & mask, mask  # BMv2 keeps the mask's bits only
    return value if mask else None  # optional: the value, or don't care


def match_param(key: wire.Key, field) -> BmMatchParam:
    """A key field of the switch's entry as BMv2's match parameter."""
    def data(value: int) -> bytes:
        return value.to_bytes(nbytes(key.width), "big")

    if key.kind == "exact":
        return BmMatchParam(type=BmMatchParamType.EXACT, exact=BmMatchParamExact(data(field)))
    if key.kind == "lpm":
        return BmMatchParam(type=BmMatchParamType.LPM, lpm=BmMatchParamLPM(data(field[0]), field[1]))
    if key.kind == "range":
        return BmMatchParam(type=BmMatchParamType.RANGE, range=BmMatchParamRange(data(field[0]), data(field[1])))
    value, mask = field if key.kind == "ternary" else (0, 0) if field is None else (field, (1 << key.width) - 1)
    return BmMatchParam(type=BmMatchParamType.TERNARY, ternary=BmMatchParamTernary(data(value), data(mask)))


def split_data(data: bytes, widths: tuple) -> list[bytes]:
    """An action's parameters' bytes, each its own."""
    out, at = [], 0
    for width in widths:
        out.append(data[at:at + nbytes(width)])
        at += nbytes(width)
    return out


def counts(value, refused) -> tuple[int, int]:
    """A BmCounterValue's packets and bytes, not negative; else `refused` is raised."""
    packets, byte_count = (value.packets, value.bytes) if value is not None else (None, None)
    if not isinstance(packets, int) or not isinstance(byte_count, int) or min(packets, byte_count) < 0:
        raise refused
    return packets, byte_count


def counter_value(read: Reader) -> BmCounterValue:
    packets, byte_count = read.u64(), read.u64()
    return BmCounterValue(bytes=byte_count, packets=packets)


def meter_rates(rates) -> wire.Rates:
    """BMv2's two rates of a meter (committed, then peak: units per microsecond and a burst)."""
    if rates is None or len(rates) != 2:
        raise InvalidMeterOperation(MeterOperationErrorCode.BAD_RATES_LIST)
    (committed, committed_burst), (peak, peak_burst) = ((r.units_per_micros, r.burst_size) for r in rates)
    if committed is None or peak is None or not 0 <= committed <= peak:
        raise InvalidMeterOperation(MeterOperationErrorCode.INVALID_INFO_RATE_VALUE)
    if committed_burst is None or peak_burst is None or min(committed_burst, peak_burst) < 0:
        raise InvalidMeterOperation(MeterOperationErrorCode.INVALID_BURST_SIZE_VALUE)
    return wire.Rates(committed, committed_burst, peak, peak_burst)


def rate_configs(read: Reader) -> list[BmMeterRateConfig]:
    """A meter cell's rates as BMv2 gives them; none for a cell without (every packet green)."""
    rates = read.rates()
    if rates is None:
        return []
    if max(rates.committed_burst, rates.peak_burst) >> 31:
        raise InvalidMeterOperation(MeterOperationErrorCode.INVALID_BURST_SIZE_VALUE)  # beyond Thrift's i32
    return [BmMeterRateConfig(rates.committed_rate, rates.committed_burst),
            BmMeterRateConfig(rates.peak_rate, rates.peak_burst)]


def register_value(cell: int, register: Cells) -> int:
    """A register cell as Thrift's i64: an int<W> cell's value, a bit<W> cell's bit pattern (a
    bit<64> cell above 2^63 reads negative, as on BMv2)."""
    if register.signed and cell >> (register.width - 1):
        cell -= 1 << register.width
    elif register.width == 64 and cell >> 63:
        cell -= 1 << 64
    if not -(1 << 63) <= cell < 1 << 63:
        raise InvalidRegisterOperation(RegisterOperationErrorCode.ERROR)  # a cell wider than i64's 64 bits
    return cell


def register_cell(value: int, register: Cells) -> int:
    """An i64 as a register cell: register_value's inverse; a value the cell cannot hold is refused."""
    width = register.width
    if register.signed and -(1 << (width - 1)) <= value < 1 << (width - 1):
        return value & ((1 << width) - 1)
    if not register.signed and width == 64 and value < 0:
        return value + (1 << 64)
    if not register.signed and 0 <= value < 1 << width:
        return value
    raise InvalidRegisterOperation(RegisterOperationErrorCode.ERROR)
