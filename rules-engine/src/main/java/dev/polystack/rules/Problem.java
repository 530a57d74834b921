package dev.polystack.rules;

/**
 * One thing wrong with an input, and where: a dotted path into a manifest or definition
 * ({@code workloads.checkout.resources.db.params.version}) and what was expected there.
 */
public record Problem(String path, String message) {

    @Override
    public String toString() {
        return path.isEmpty() ? message : path + ": " + message;
    }
}
