package dev.polystack.cli;

/** A failure to report in one message, with the exit status it stands for. */
public class CliException extends RuntimeException {

    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }

    public static CliException badInput(String message) {
        return new CliException(ExitCodes.BAD_INPUT, message);
    }
}
