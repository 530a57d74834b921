package dev.polystack.cli;

/** What the command's exit status means; CI pipelines branch on it. */
public final class ExitCodes {

    /** It worked: the deployment succeeded, the object was read or changed. */
    public static final int OK = 0;
    /** The deployment failed, or the server or the network did. */
    public static final int FAILED = 1;
    /** The deployment was cancelled, or did not end before the timeout. */
    public static final int CANCELLED_OR_TIMED_OUT = 2;
    /** The command line, a file or the request was wrong: fix the input and run it again. */
    public static final int BAD_INPUT = 3;

    private ExitCodes() {}
}
