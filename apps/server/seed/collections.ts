/** The value stored under `key`, created with `init` on first use (grouping rows into lists). */
export function getOrAdd<K, V>(map: Map<K, V>, key: K, init: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = init();
    map.set(key, value);
  }
  return value;
}
