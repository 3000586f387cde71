// A small stand-in for the `side-channel` package in the browser bundle. qs (through
// @refinedev/core) uses it only to detect cycles while writing a query string; the package
// brings a chain of polyfill helpers and a value inspector (about 8 KB gzipped) that browsers
// this client supports don't need. Same interface: a per-call store keyed by value.
module.exports = function getSideChannel() {
  const store = new Map();
  return {
    assert(key) {
      if (!store.has(key)) throw new TypeError('Side channel does not contain the given key');
    },
    delete(key) {
      return store.delete(key);
    },
    get(key) {
      return store.get(key);
    },
    has(key) {
      return store.has(key);
    },
    set(key, value) {
      store.set(key, value);
    },
  };
};
