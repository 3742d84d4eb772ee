package io.zkchaos.nemesis.frame;

/** The bytes of a stream do not follow the protocol its decoder reads; the message says where and what. */
public final class FrameDecodingException extends RuntimeException {

    public FrameDecodingException(String message) {
        super(message);
    }
}
