package dev.polystack.platform.resource;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * What decides whether a resource must run again, as a digest and its parts: {@code module} (module and
 * version), {@code inputs} (resolved inputs, secret inputs included), {@code providers} (configuration,
 * secrets by digest, source and version constraint) and {@code schema} (the resource type's output schema).
 * Resources recorded before the parts were kept have only the digest, which covers module, inputs and
 * provider configuration; they are compared by it.
 *
 * @param parts part name → digest; null for a fingerprint recorded before parts were kept
 */
public record Fingerprint(String digest, JsonNode parts) {

    public static final List<String> PARTS = List.of("module", "inputs", "providers", "schema");

    /** Whether a resource recorded with {@code recorded} needs no run to become this. */
    public boolean matches(Fingerprint recorded) {
        if (recorded == null) {
            return false;
        }
        if (recorded.parts == null || parts == null) {
            return digest.equals(recorded.digest);
        }
        return digest.equals(recorded.digest) && parts.equals(recorded.parts);
    }

    /** Why a resource recorded with {@code recorded} runs again: the parts that differ, in {@link #PARTS} order. */
    public List<String> differences(Fingerprint recorded, boolean moduleChanged) {
        List<String> reasons = new ArrayList<>();
        if (matches(recorded)) {
            return reasons;
        }
        if (recorded.parts == null || parts == null) {
            reasons.add(moduleChanged ? "module" : "inputs");
            return reasons;
        }
        for (String part : PARTS) {
            if (!parts.path(part).equals(recorded.parts.path(part))) {
                reasons.add(part);
            }
        }
        if (reasons.isEmpty()) {
            // the digest alone differs: provider secrets changed
            reasons.add("providers");
        }
        return reasons;
    }
}
