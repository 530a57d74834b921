package dev.polystack.runner;

/** Where the lines of a job's tofu commands go: to the control plane, or to a job pod's stdout. */
public interface LineSink {

    /** A raw line of tofu output. */
    void line(String raw);

    /**
     * A line tofu printed on stderr: a warning, or part of an error (level {@code error}) of a command that
     * prints text. Where lines travel as text (a job pod's log), it goes as a {@code -json}-like message
     * that {@link UiStream} reads back with its level.
     */
    default void stderr(String raw, String level) {
        line(UiStream.stderrMessage(raw, level));
    }

    /** A line of the agent's own, e.g. why a job ended. */
    void note(String message);
}
