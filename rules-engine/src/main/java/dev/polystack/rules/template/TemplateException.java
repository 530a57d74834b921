package dev.polystack.rules.template;

/** A string that is not a valid template; {@link #position()} is the 0-based offset of the trouble. */
public class TemplateException extends RuntimeException {

    private final int position;
    private final String reason;

    public TemplateException(String reason, int position) {
        super(reason + " at position " + position, null, false, false);
        this.reason = reason;
        this.position = position;
    }

    public int position() {
        return position;
    }

    public String reason() {
        return reason;
    }
}
