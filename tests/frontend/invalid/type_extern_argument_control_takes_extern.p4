// The type argument of Runner is a control whose apply takes a Runner: the type would contain itself.
// expect error@8:5: Runner: contains itself as a type argument
#include <core.p4>
extern Runner<C> { Runner(C c); void run(); }
control Step(Runner<_> r) { apply { r.run(); } }
control Top() {
    Step() step;
    Runner<Step>(step) runner;
    apply { }
}
