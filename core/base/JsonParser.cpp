// JsonValue::parse: a strict recursive-descent JSON reader (RFC 8259), errors as values.
#include <charconv>
#include <cstdint>

#include "core/base/JsonValue.h"

namespace tomo {
namespace {

constexpr int kMaxDepth = 64;

class Parser {
  public:
    explicit Parser(std::string_view text) : m_text(text) {}

    Result<JsonValue> document() {
        TOMO_ASSIGN_OR_RETURN(JsonValue v, value(0));
        skipSpace();
        if (m_pos != m_text.size()) return fail("unexpected text after the document");
        return v;
    }

  private:
    Status fail(const std::string& why) const {
        return invalidData("JSON offset " + std::to_string(m_pos) + ": " + why);
    }

    void skipSpace() {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' ||
                                         m_text[m_pos] == '\r' || m_text[m_pos] == '\t'))
            ++m_pos;
    }

    bool consume(std::string_view word) {
        if (m_text.substr(m_pos, word.size()) != word) return false;
        m_pos += word.size();
        return true;
    }

    Result<JsonValue> value(int depth) {
        if (depth > kMaxDepth) return fail("nesting deeper than 64 levels");
        skipSpace();
        if (m_pos >= m_text.size()) return fail("unexpected end of text");
        const char c = m_text[m_pos];
        if (c == '{') return object(depth);
        if (c == '[') return array(depth);
        if (c == '"') {
            TOMO_ASSIGN_OR_RETURN(std::string s, string());
            return JsonValue::string(std::move(s));
        }
        if (consume("true")) return JsonValue::boolean(true);
        if (consume("false")) return JsonValue::boolean(false);
        if (consume("null")) return JsonValue();
        if (c == '-' || (c >= '0' && c <= '9')) return number();
        return fail(std::string("unexpected character '") + c + "'");
    }

    Result<JsonValue> number() {
        const std::size_t start = m_pos;
        // Validate the JSON number grammar (from_chars alone accepts "01", "1.", "inf").
        if (m_text[m_pos] == '-') ++m_pos;
        auto digits = [&] {
            std::size_t n = 0;
            while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9')
                ++m_pos, ++n;
            return n;
        };
        const std::size_t intStart = m_pos;
        if (digits() == 0) return fail("malformed number");
        if (m_text[intStart] == '0' && m_pos - intStart > 1) return fail("leading zero in number");
        if (m_pos < m_text.size() && m_text[m_pos] == '.') {
            ++m_pos;
            if (digits() == 0) return fail("malformed number (no digit after '.')");
        }
        if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
            ++m_pos;
            if (m_pos < m_text.size() && (m_text[m_pos] == '+' || m_text[m_pos] == '-')) ++m_pos;
            if (digits() == 0) return fail("malformed number (empty exponent)");
        }
        double v = 0;
        auto r = std::from_chars(m_text.data() + start, m_text.data() + m_pos, v);
        if (r.ec != std::errc() || r.ptr != m_text.data() + m_pos)
            return fail("number out of range");
        return JsonValue::number(v);
    }

    static void appendUtf8(std::string& out, std::uint32_t cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    Result<std::uint32_t> hex4() {
        if (m_pos + 4 > m_text.size()) return fail("truncated \\u escape");
        std::uint32_t v = 0;
        auto r = std::from_chars(m_text.data() + m_pos, m_text.data() + m_pos + 4, v, 16);
        if (r.ec != std::errc() || r.ptr != m_text.data() + m_pos + 4)
            return fail("malformed \\u escape");
        m_pos += 4;
        return v;
    }

    Result<std::string> string() {
        ++m_pos;  // opening quote
        std::string out;
        while (true) {
            if (m_pos >= m_text.size()) return fail("unterminated string");
            const char c = m_text[m_pos++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) return fail("control character in string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (m_pos >= m_text.size()) return fail("unterminated escape");
            const char e = m_text[m_pos++];
            switch (e) {
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '/':
                    out += '/';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u': {
                    TOMO_ASSIGN_OR_RETURN(std::uint32_t cp, hex4());
                    if (cp >= 0xD800 && cp < 0xDC00) {
                        if (!consume("\\u")) return fail("lone high surrogate");
                        TOMO_ASSIGN_OR_RETURN(std::uint32_t lo, hex4());
                        if (lo < 0xDC00 || lo >= 0xE000) return fail("bad low surrogate");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    } else if (cp >= 0xDC00 && cp < 0xE000) {
                        return fail("lone low surrogate");
                    }
                    appendUtf8(out, cp);
                    break;
                }
                default:
                    return fail(std::string("unknown escape '\\") + e + "'");
            }
        }
    }

    Result<JsonValue> array(int depth) {
        ++m_pos;
        JsonValue a = JsonValue::array();
        skipSpace();
        if (consume("]")) return a;
        while (true) {
            TOMO_ASSIGN_OR_RETURN(JsonValue v, value(depth + 1));
            a.push(std::move(v));
            skipSpace();
            if (consume("]")) return a;
            if (!consume(",")) return fail("expected ',' or ']' in array");
        }
    }

    Result<JsonValue> object(int depth) {
        ++m_pos;
        JsonValue o = JsonValue::object();
        skipSpace();
        if (consume("}")) return o;
        while (true) {
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != '"')
                return fail("expected a string key in object");
            TOMO_ASSIGN_OR_RETURN(std::string key, string());
            skipSpace();
            if (!consume(":")) return fail("expected ':' after object key");
            TOMO_ASSIGN_OR_RETURN(JsonValue v, value(depth + 1));
            o.set(std::move(key), std::move(v));
            skipSpace();
            if (consume("}")) return o;
            if (!consume(",")) return fail("expected ',' or '}' in object");
        }
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

}  // namespace

Result<JsonValue> JsonValue::parse(std::string_view text) {
    return Parser(text).document();
}

}  // namespace tomo
