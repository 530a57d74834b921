package dev.polystack.tests;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the benchmark harness reads from /proc (memory, CPU, threads) and how it rounds and prints figures. */
final class Figures {

    private Figures() {}

    static double mibOf(long bytes) {
        return Math.round(bytes / 1048576.0 * 10) / 10.0;
    }

    static long rss(long pid) {
        return status(pid, "VmRSS:") * 1024;
    }

    /**
     * CPU seconds (user and system) used so far by the control plane, by PostgreSQL (all its processes) and
     * by this harness, read from /proc; zeros where /proc is not there.
     */
    static double[] cpuSeconds(long platformPid) {
        double postgres = ProcessHandle.allProcesses()
                .filter(p ->
                        p.info().command().map(c -> c.endsWith("/postgres")).orElse(false))
                .mapToDouble(p -> cpuOf(p.pid()))
                .sum();
        return new double[] {
            cpuOf(platformPid), postgres, cpuOf(ProcessHandle.current().pid())
        };
    }

    static Map<String, Double> threadCpu(long pid) {
        Map<String, Double> byName = new java.util.TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            tasks.forEach(task -> {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
                            .replaceAll("[0-9]+", "N");
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    byName.merge(name, (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0, Double::sum);
                } catch (Exception e) {
                    // a thread that ended meanwhile
                }
            });
        } catch (Exception e) {
            // no /proc
        }
        return byName;
    }

    /**
     * CPU seconds by thread name between two {@link #threadCpu} readings. A name stands for every thread whose name
     * differs only in its numbers; when one of them ended meanwhile, what it used is gone from the second reading,
     * and the name counts at least nothing rather than a negative figure.
     */
    static Map<String, Double> threadCpuBetween(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> between = new java.util.TreeMap<>();
        after.forEach((name, seconds) -> between.put(name, Math.max(0.0, seconds - before.getOrDefault(name, 0.0))));
        return between;
    }

    /**
     * Where a process's CPU went between two {@link #threadCpu} readings, by thread name (JIT compiler
     * threads included), largest first, from 0.1 s.
     */
    static String cpuByThread(Map<String, Double> before, Map<String, Double> after) {
        return threadCpuBetween(before, after).entrySet().stream()
                .filter(e -> e.getValue() >= 0.1)
                .sorted((a, b) -> Double.compare(b.getValue(), a.getValue()))
                .map(e -> String.format("%s %.1f s", e.getKey().trim(), e.getValue()))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    static double cpuOf(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
        } catch (Exception e) {
            return 0;
        }
    }

    static long threads(long pid) {
        return status(pid, "Threads:");
    }

    static long status(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
                }
            }
        } catch (Exception e) {
            return 0;
        }
        return 0;
    }

    static Map<String, Double> percentiles(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        Map<String, Double> result = new LinkedHashMap<>();
        result.put("count", (double) sorted.size());
        result.put("p50", round(at(sorted, 0.50)));
        result.put("p95", round(at(sorted, 0.95)));
        result.put("p99", round(at(sorted, 0.99)));
        result.put("max", round(sorted.get(sorted.size() - 1)));
        return result;
    }

    static double at(List<Double> sorted, double quantile) {
        int index = (int) Math.ceil(quantile * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }

    static String ms(double value) {
        return String.format("%.1f ms", value);
    }

    static String mib(long bytes) {
        return String.format("%.0f MiB", bytes / 1048576.0);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
