/// A shared counter: the example package of `smi build` (apps/cli/README.md).
module counter::counter;

/// A counter anyone can increment.
public struct Counter has key {
    id: UID,
    value: u64,
}

/// Create a counter and share it.
public fun create(ctx: &mut TxContext) {
    transfer::share_object(Counter { id: object::new(ctx), value: 0 })
}

/// Add one.
public fun increment(counter: &mut Counter) {
    counter.value = counter.value + 1;
}

/// The current value.
public fun value(counter: &Counter): u64 {
    counter.value
}
