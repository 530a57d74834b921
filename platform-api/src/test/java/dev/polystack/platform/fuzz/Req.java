package dev.polystack.platform.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

final class Req {
    static final java.util.regex.Pattern INVALID_ESCAPE = java.util.regex.Pattern.compile("%(?![0-9A-Fa-f]{2})");
    String method = "GET";
    String target = "/";
    final List<String[]> headers = new ArrayList<>();
    byte[] body;
    boolean chunked;
    int expectStatus;
    boolean expectRefusal;
    String note = "";

    static Req get(String target) {
        return new Req().method("GET").target(target);
    }

    Req method(String method) {
        this.method = method;
        return this;
    }

    Req target(String target) {
        this.target = target;
        return this;
    }

    Req header(String name, String value) {
        headers.add(new String[] {name, value});
        return this;
    }

    Req bearer(String token) {
        return header("Authorization", "Bearer " + token);
    }

    Req body(byte[] body) {
        this.body = body;
        return this;
    }

    Req body(String body) {
        return body(body.getBytes(StandardCharsets.UTF_8));
    }

    Req note(String note) {
        this.note = note;
        return this;
    }

    Req build() {
        return this;
    }

    static final java.util.regex.Pattern TOKEN = java.util.regex.Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    /**
     * Why the request is not valid HTTP/1.1 syntax, so that the HTTP decoder (Netty, below Quarkus) refuses it
     * on its own; null when it is HTTP. Quarkus' limits: 4096 bytes of request line, 20 KiB of headers.
     */
    String protocolViolation() {
        if ((method + " " + target + " HTTP/1.1").getBytes(StandardCharsets.UTF_8).length > 4096) {
            return "request line over 4096 bytes";
        }
        if (target.isEmpty() || target.chars().anyMatch(c -> c <= 0x20 || c == 0x7f)) {
            return "whitespace or a control character in the request target";
        }
        if (headers.stream().anyMatch(h -> h[0].equalsIgnoreCase("Upgrade") && h[1] != null)) {
            return "a protocol upgrade";
        }
        if (method.equals("CONNECT") || !target.startsWith("/")) {
            return "a request target that is not a path";
        }
        if (INVALID_ESCAPE.matcher(target.split("[?#]", 2)[0]).find()) {
            return "invalid percent-encoding in the path (Vert.x answers 400 before routing)";
        }
        int size = 0;
        for (String[] h : headers) {
            if (h[1] == null) {
                continue;
            }
            if (!TOKEN.matcher(h[0]).matches()) {
                return "header name that is not a token";
            }
            if (h[1].chars().anyMatch(c -> c < 0x20 && c != '\t' || c == 0x7f)) {
                return "control character in a header value";
            }
            size += h[0].length() + h[1].getBytes(StandardCharsets.UTF_8).length + 4;
        }
        return size > 20 * 1024 - 200 ? "headers over 20 KiB" : null;
    }

    String summary() {
        return method + " " + Text.abbreviate(target, 120) + (note.isEmpty() ? "" : " [" + note + "]");
    }

    String describe() {
        StringBuilder out = new StringBuilder();
        out.append("  request: ")
                .append(method)
                .append(' ')
                .append(Text.abbreviate(target, 300))
                .append(note.isEmpty() ? "" : "   [" + note + "]")
                .append('\n');
        for (String[] h : headers) {
            out.append("    ")
                    .append(Text.abbreviate(h[0], 60))
                    .append(": ")
                    .append(h[1] == null ? "(left out)" : Text.abbreviate(h[1], 200))
                    .append('\n');
        }
        if (body != null) {
            out.append("    body (")
                    .append(body.length)
                    .append(" bytes")
                    .append(chunked ? ", chunked" : "")
                    .append("): ")
                    .append(Text.abbreviate(new String(body, StandardCharsets.UTF_8), 400))
                    .append('\n');
        }
        return out.toString();
    }
}
