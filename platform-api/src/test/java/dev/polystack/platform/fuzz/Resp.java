package dev.polystack.platform.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

final class Resp {
    int status;
    final Map<String, String> headers = new LinkedHashMap<>();
    byte[] body = new byte[0];
    long millis;
    String error;

    String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }

    String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    String describe() {
        if (error != null && status == 0) {
            return error + " after " + millis + " ms";
        }
        return status + " in " + millis + " ms, Content-Type: " + header("content-type") + ", body: "
                + Text.abbreviate(text(), 600);
    }
}
