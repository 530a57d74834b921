package dev.polystack.platform.fuzz;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Map;

/** A JSON/YAML map that may hold a key twice. */
final class Obj extends ArrayList<Map.Entry<String, Object>> {
    Obj put(String key, Object value) {
        add(new AbstractMap.SimpleEntry<>(key, value));
        return this;
    }

    Object get(String key) {
        for (Map.Entry<String, Object> e : this) {
            if (e.getKey().equals(key)) {
                return e.getValue();
            }
        }
        return null;
    }

    static Obj of(Object... keysAndValues) {
        Obj obj = new Obj();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            obj.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return obj;
    }
}
