package dev.polystack.platform.deployment;

/** queued → running → done; a queued job may be cancelled before a runner takes it; a running one may be lost. */
public enum JobStatus {
    QUEUED("queued"),
    RUNNING("running"),
    DONE("done"),
    CANCELLED("cancelled"),
    LOST("lost");

    private static final java.util.Map<JobStatus, java.util.Set<JobStatus>> NEXT = new java.util.EnumMap<>(JobStatus.class);

    static {
        NEXT.put(QUEUED, java.util.EnumSet.of(RUNNING, CANCELLED));
        NEXT.put(RUNNING, java.util.EnumSet.of(DONE, CANCELLED, LOST));
        for (JobStatus terminal : java.util.EnumSet.of(DONE, CANCELLED, LOST)) {
            NEXT.put(terminal, java.util.EnumSet.noneOf(JobStatus.class));
        }
    }

    private final String wireName;

    JobStatus(String wireName) {
        this.wireName = wireName;
    }

    public boolean isTerminal() {
        return NEXT.get(this).isEmpty();
    }

    public boolean canMoveTo(JobStatus next) {
        return NEXT.get(this).contains(next);
    }

    public String wireName() {
        return wireName;
    }

    static JobStatus fromWire(String value) {
        for (JobStatus status : values()) {
            if (status.wireName.equals(value)) {
                return status;
            }
        }
        throw new IllegalArgumentException(value);
    }

    @jakarta.persistence.Converter
    public static class Converter implements jakarta.persistence.AttributeConverter<JobStatus, String> {
        @Override
        public String convertToDatabaseColumn(JobStatus status) {
            return status.wireName;
        }

        @Override
        public JobStatus convertToEntityAttribute(String value) {
            return fromWire(value);
        }
    }
}
