"""x86-trace: the x86 target with a packet I/O template that traces each packet sent; and
`extern_func`, an extern function that v1model does not define, which this package adds.

A target is a `p4odp.backend.target.Target`; this one reuses x86's toolchain and
ODP and adds a template folder that p4odp searches before its own templates.

An extern is a `p4odp.transpiler.architectures.Extern`: the Python that emits the C of each call
(its handler) and the C that C calls (`c_code`, put once into datapath.c when a program uses the
extern).  This one gives p4c's extern-funcs-bmv2 sample its `extern_func`.
"""

from dataclasses import replace
from pathlib import Path

from p4odp.backend.targets import X86
from p4odp.transpiler.architectures import Extern

__all__ = ["TRACE", "EXTERN_FUNC"]

TRACE = replace(
    X86,
    name="x86-trace",
    description="x86 with a trace line on stderr for every packet sent (example out-of-tree target)",
    template_dirs=(str(Path(__file__).parent / "templates"),),
)


def _extern_func(ctx, call, args):
    """extern void extern_func(out bit<32> d, bit<32> s): d = s, through the C of `c_code`."""
    target = ctx.lvalue(args[0])
    ctx.emit(f"{target.c} = trace_extern_func((uint32_t)({ctx.value(args[1])}));")


EXTERN_FUNC = Extern(
    "extern_func",
    {"extern_func": _extern_func},
    function=True,
    architecture="v1model",
    c_code="""\
/* extern_func (the p4odp-target-trace package): its result is its argument. */
static inline uint32_t trace_extern_func(uint32_t s)
{
	return s;
}""",
)
