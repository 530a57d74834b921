package dev.polystack.runner;

/** Where the lines of a job's tofu commands go: to the control plane, or to a job pod's stdout. */
public interface LineSink {

    /** A raw line of tofu output. */
    void line(String raw);

    /** A line of the agent's own, e.g. why a job ended. */
    void note(String message);
}
