package dev.polystack.platform.fuzz;

import com.fasterxml.jackson.databind.ObjectMapper;

/** What the fuzzed requests are judged by, and the JSON mapper they are written with. */
final class Limits {

    /** The longest an answer may take. */
    static final int TIMEOUT_MS = 10_000;
    /** The control plane's request body limit. */
    static final int BODY_LIMIT = 1024 * 1024;
    /** The state backend's body limit. */
    static final int STATE_LIMIT = 32 * 1024 * 1024;

    static final ObjectMapper JSON = new ObjectMapper();

    private Limits() {}
}
