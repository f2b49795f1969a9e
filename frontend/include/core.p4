/* core.p4 -- the P4_16 core library, as shipped with p4odp.
 *
 * Declares what every P4_16 program may use whatever its architecture:
 * the built-in error codes, the packet_in and packet_out externs, verify(),
 * NoAction, the three basic match kinds and static_assert().
 *
 * It is API-compatible with the core.p4 distributed with p4c (same names,
 * type parameters, parameters and members in the same order), so programs
 * written against that file compile unchanged.
 */

#ifndef _CORE_P4_
#define _CORE_P4_

// Error codes known to every program.  A program (or an architecture file)
// may add members with further `error { ... }` declarations.
error {
    NoError,               // nothing went wrong
    PacketTooShort,        // extract() ran past the end of the packet
    NoMatch,               // no case of a select() matched
    StackOutOfBounds,      // header stack index out of range
    HeaderTooShort,        // varbit extract asked for more bits than the field holds
    ParserTimeout,         // the parser ran longer than the target allows
    ParserInvalidArgument  // a parser primitive got an argument the target cannot handle
}

// The packet being parsed.  Only parsers receive one.
extern packet_in {
    // Copy the next bits of the packet into the fixed-size header `hdr`,
    // make it valid and move the cursor past it.
    // Errors: PacketTooShort, StackOutOfBounds.
    void extract<T>(out T hdr);

    // As above for a header whose single varbit field is to receive
    // `variableFieldSizeInBits` bits.
    // Errors: PacketTooShort, StackOutOfBounds, HeaderTooShort.
    void extract<T>(out T variableSizeHeader,
                    in bit<32> variableFieldSizeInBits);

    // Peek at the next sizeof(T) bits without moving the cursor.
    T lookahead<T>();

    // Skip `sizeInBits` bits.
    void advance(in bit<32> sizeInBits);

    // Length of the whole packet in bytes (not every target offers it).
    bit<32> length();
}

// The packet being built.  Only deparsers receive one.
extern packet_out {
    // Append `hdr` if it is a valid header; a header stack, header union or
    // struct is emitted member by member, skipping invalid headers.
    void emit<T>(in T hdr);
}

// Parser assertion: when `check` is false, record `toSignal` as the parser
// error and go to the `reject` state.
extern void verify(in bool check, in error toSignal);

// The action that does nothing; the usual default action of a table.
@noWarn("unused")
action NoAction() {}

// Basic match kinds of table keys.  Architectures may declare more.
match_kind {
    exact,    // key bits equal to the entry's bits
    ternary,  // equal under the entry's mask
    lpm       // longest matching prefix wins
}

// Compile-time check: compilation fails with `message` when `check` is
// false.  It returns a bool so that it can initialise a constant, e.g.
//     const bool ok = static_assert(V1MODEL_VERSION >= 20180101, "too old");
extern bool static_assert(bool check, string message);

// Same, with a message chosen by the compiler.
extern bool static_assert(bool check);

#endif  /* _CORE_P4_ */
