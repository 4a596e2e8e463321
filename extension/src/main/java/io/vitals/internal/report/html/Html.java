package io.vitals.internal.report.html;

/** Escaping for text and attribute values; every string from a test (display names!) goes through here. */
final class Html {

    private Html() {
    }

    static String escape(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String replacement;
            switch (c) {
                case '&': replacement = "&amp;"; break;
                case '<': replacement = "&lt;"; break;
                case '>': replacement = "&gt;"; break;
                case '"': replacement = "&quot;"; break;
                case '\'': replacement = "&#39;"; break;
                default: replacement = null;
            }
            if (replacement != null && out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (out != null) {
                if (replacement != null) {
                    out.append(replacement);
                } else {
                    out.append(c);
                }
            }
        }
        return out == null ? text : out.toString();
    }
}
