/**
 * Wrapping a driver's methods in place (counting round trips, PGlite's queue, the guard against
 * a transaction waiting on itself). A method is untyped here on purpose: each wrapper passes
 * the arguments through as it got them and looks only at what it needs.
 */

/** Calls the wrapped method on `self` with `args`. */
type CallThrough = (self: unknown, args: unknown[]) => unknown;

/**
 * Makes `target[name]` an own method that runs `wrapper`, which calls the method it replaces
 * through `call`. A method of target's own is kept as it was; one inherited from its class is
 * looked up at each call, so that a later wrapper of the class's own (the bench's statement
 * capture) still sees every call.
 */
export function wrapMethod(target: object, name: string, wrapper: (call: CallThrough, self: unknown, args: unknown[]) => unknown): void {
  const own: unknown = Object.hasOwn(target, name) ? Reflect.get(target, name) : undefined;
  const proto: object = Object.getPrototypeOf(target);
  const call: CallThrough = (self, args) => {
    const method: unknown = own ?? Reflect.get(proto, name);
    if (typeof method !== 'function') throw new TypeError(`${name} is not a method`);
    return Reflect.apply(method, self, args);
  };
  Reflect.set(target, name, function (this: unknown, ...args: unknown[]) {
    return wrapper(call, this, args);
  });
}
