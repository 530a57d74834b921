package dev.polystack.platform.deployment;

/** queued → running → done; a queued job may be cancelled before a runner takes it; a running one may be lost. */
public enum JobStatus {
    QUEUED("queued"),
    RUNNING("running"),
    DONE("done"),
    CANCELLED("cancelled"),
    LOST("lost");

    private final String wireName;

    JobStatus(String wireName) {
        this.wireName = wireName;
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
