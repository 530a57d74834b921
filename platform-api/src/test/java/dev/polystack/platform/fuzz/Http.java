package dev.polystack.platform.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

import static dev.polystack.platform.fuzz.Limits.TIMEOUT_MS;

/** Writes requests byte for byte and reads the answer, never waiting more than 10 seconds in all. */
final class Http {

    static Resp send(int port, Req request) {
        Resp response = new Resp();
        long started = System.nanoTime();
        long deadline = started + TIMEOUT_MS * 1_000_000L;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MS);
            socket.setSoTimeout(TIMEOUT_MS);
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            head.writeBytes((request.method + " " + request.target + " HTTP/1.1\r\n").getBytes(StandardCharsets.UTF_8));
            if (request.headers.stream().noneMatch(h -> h[0].equalsIgnoreCase("Host"))) {
                head.writeBytes(("Host: 127.0.0.1:" + port + "\r\n").getBytes(StandardCharsets.UTF_8));
            }
            for (String[] h : request.headers) {
                if (h[1] != null) { // a null value leaves the header out, even Host
                    head.writeBytes((h[0] + ": " + h[1] + "\r\n").getBytes(StandardCharsets.UTF_8));
                }
            }
            if (request.body != null) {
                head.writeBytes((request.chunked
                                ? "Transfer-Encoding: chunked\r\n"
                                : "Content-Length: " + request.body.length + "\r\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            head.writeBytes("Connection: close\r\n\r\n".getBytes(StandardCharsets.UTF_8));
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            IOException writeFailure = null;
            try {
                out.write(head.toByteArray());
                if (request.body != null) {
                    if (request.chunked) {
                        for (int offset = 0; offset < request.body.length; offset += 16384) {
                            int length = Math.min(16384, request.body.length - offset);
                            out.write((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                            out.write(request.body, offset, length);
                            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                        }
                        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    } else {
                        out.write(request.body);
                    }
                }
                out.flush();
            } catch (IOException e) {
                // the server may answer and close before it read everything (413); read what it said
                writeFailure = e;
            }
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            byte[] buffer = new byte[65536];
            while (true) {
                if (parse(received.toByteArray(), response)) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new SocketTimeoutException("no complete answer");
                }
                int n;
                try {
                    n = in.read(buffer);
                } catch (IOException e) {
                    if (received.size() > 0 && parse(received.toByteArray(), response)) {
                        break;
                    }
                    throw writeFailure != null ? writeFailure : e;
                }
                if (n < 0) {
                    if (!parseAtEof(received.toByteArray(), response)) {
                        response.error = "the connection was closed without a complete answer (" + received.size()
                                + " bytes"
                                + (writeFailure != null ? "; writing failed: " + writeFailure.getMessage() : "")
                                + ")";
                    }
                    break;
                }
                received.write(buffer, 0, n);
                if (received.size() > 32 * 1024 * 1024) {
                    response.error = "an answer of more than 32 MiB";
                    break;
                }
            }
        } catch (SocketTimeoutException e) {
            response.error = "no answer within " + TIMEOUT_MS / 1000 + " s (hang)";
        } catch (IOException e) {
            response.error = "the connection failed: " + e;
        }
        response.millis = (System.nanoTime() - started) / 1_000_000;
        return response;
    }

    /** True when {@code data} holds a complete answer (skipping interim 1xx answers). */
    static boolean parse(byte[] data, Resp response) {
        int start = 0;
        while (true) {
            int end = indexOf(data, start, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            if (end < 0) {
                return false;
            }
            String[] lines = new String(data, start, end - start, StandardCharsets.ISO_8859_1).split("\r\n");
            String[] statusLine = lines[0].split(" ", 3);
            int status = Integer.parseInt(statusLine[1]);
            int bodyStart = end + 4;
            if (status >= 100 && status < 200) {
                start = bodyStart;
                continue;
            }
            response.status = status;
            response.headers.clear();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    response.headers.merge(
                            lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            new String(
                                    lines[i].substring(colon + 1).trim().getBytes(StandardCharsets.ISO_8859_1),
                                    StandardCharsets.UTF_8),
                            (a, b) -> a + ", " + b);
                }
            }
            String length = response.header("content-length");
            String encoding = response.header("transfer-encoding");
            if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
                byte[] body = dechunk(data, bodyStart);
                if (body == null) {
                    return false;
                }
                response.body = body;
                return true;
            }
            if (length != null) {
                int n = Integer.parseInt(length.trim());
                if (data.length - bodyStart < n) {
                    return false;
                }
                response.body = Arrays.copyOfRange(data, bodyStart, bodyStart + n);
                return true;
            }
            return false; // the body ends with the connection
        }
    }

    static boolean parseAtEof(byte[] data, Resp response) {
        if (parse(data, response)) {
            return true;
        }
        int end = indexOf(data, 0, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        if (end < 0 || response.status == 0) {
            return false;
        }
        if (response.header("content-length") == null && response.header("transfer-encoding") == null) {
            response.body = Arrays.copyOfRange(data, end + 4, data.length);
            return true;
        }
        return false;
    }

    static byte[] dechunk(byte[] data, int at) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int position = at;
        while (true) {
            int lineEnd = indexOf(data, position, "\r\n".getBytes(StandardCharsets.US_ASCII));
            if (lineEnd < 0) {
                return null;
            }
            String sizeText = new String(data, position, lineEnd - position, StandardCharsets.US_ASCII);
            int semicolon = sizeText.indexOf(';');
            int size = Integer.parseInt((semicolon >= 0 ? sizeText.substring(0, semicolon) : sizeText).trim(), 16);
            position = lineEnd + 2;
            if (size == 0) {
                return indexOf(data, position, "\r\n".getBytes(StandardCharsets.US_ASCII)) < 0
                        ? null
                        : body.toByteArray();
            }
            if (data.length < position + size + 2) {
                return null;
            }
            body.write(data, position, size);
            position += size + 2;
        }
    }

    static int indexOf(byte[] data, int from, byte[] needle) {
        outer:
        for (int i = from; i <= data.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (data[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
