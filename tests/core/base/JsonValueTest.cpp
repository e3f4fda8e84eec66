// JsonValue: writer and reader round trips, escapes, number exactness and error reporting.
#include <gtest/gtest.h>

#include <cmath>

#include "core/base/JsonValue.h"

namespace tomo {
namespace {

TEST(JsonValue, RoundTripPreservesStructureAndValues) {
    JsonValue doc = JsonValue::object();
    doc.set("name", JsonValue::string("NVIDIA H100 \"SXM\"\n\ttab\\"));
    doc.set("pi", JsonValue::number(3.141592653589793));
    doc.set("tiny", JsonValue::number(1e-300));
    doc.set("neg", JsonValue::number(-42));
    doc.set("yes", JsonValue::boolean(true));
    doc.set("none", JsonValue());
    JsonValue list = JsonValue::array();
    list.push(JsonValue::number(1)).push(JsonValue::string("two")).push(JsonValue::object());
    doc.set("list", std::move(list));
    for (int indent : {0, 2}) {
        auto back = JsonValue::parse(doc.dump(indent));
        ASSERT_TRUE(back.isOk()) << back.status().toString();
        EXPECT_EQ(back->stringAt("name"), "NVIDIA H100 \"SXM\"\n\ttab\\");
        EXPECT_EQ(back->numberAt("pi"), 3.141592653589793);  // shortest round-trip digits
        EXPECT_EQ(back->numberAt("tiny"), 1e-300);
        EXPECT_EQ(back->numberAt("neg"), -42);
        EXPECT_TRUE(back->boolAt("yes"));
        ASSERT_NE(back->find("none"), nullptr);
        EXPECT_TRUE(back->find("none")->isNull());
        ASSERT_EQ(back->find("list")->items().size(), 3u);
        EXPECT_EQ(back->find("list")->items()[1].asString(), "two");
        EXPECT_TRUE(back->find("list")->items()[2].isObject());
        EXPECT_EQ(back->dump(indent), doc.dump(indent));
    }
}

TEST(JsonValue, WritesNonFiniteAsNullAndEscapesControlCharacters) {
    JsonValue doc = JsonValue::array();
    doc.push(JsonValue::number(std::nan(""))).push(JsonValue::string(std::string("a\x01z")));
    EXPECT_EQ(doc.dump(0), "[null,\"a\\u0001z\"]");
}

TEST(JsonValue, DecodesUnicodeEscapesToUtf8) {
    auto v = JsonValue::parse(R"(["\u00e9\u20ac\ud83d\ude00\/"])");
    ASSERT_TRUE(v.isOk()) << v.status().toString();
    EXPECT_EQ(v->items()[0].asString(), "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80/");
}

TEST(JsonValue, ParsesNumbersByTheJsonGrammar) {
    auto v = JsonValue::parse("[0, -0.5, 1e3, 2.5E-2, 123456789012]");
    ASSERT_TRUE(v.isOk());
    const auto& x = v->items();
    EXPECT_EQ(x[0].asNumber(), 0.0);
    EXPECT_EQ(x[1].asNumber(), -0.5);
    EXPECT_EQ(x[2].asNumber(), 1000.0);
    EXPECT_EQ(x[3].asNumber(), 0.025);
    EXPECT_EQ(x[4].asNumber(), 123456789012.0);
}

TEST(JsonValue, RejectsMalformedTextWithOffsetAndCause) {
    const char* bad[] = {
        "",     "{",      "{\"a\" 1}",  "[1,]",        "[01]",      "[1.]",
        "[.5]", "tru",    "\"abc",      "{\"a\":1} x", "[\"\\x\"]", "[\"\\ud800\"]",
        "[1e]", "{1: 2}", "[\"a\nb\"]", "[-]",         "nan",       "[inf]"};
    for (const char* text : bad) {
        auto v = JsonValue::parse(text);
        EXPECT_FALSE(v.isOk()) << "accepted: " << text;
        if (!v.isOk()) {
            EXPECT_EQ(v.status().code(), ErrorCode::InvalidData);
            EXPECT_NE(v.status().message().find("JSON offset"), std::string::npos);
        }
    }
}

TEST(JsonValue, LimitsNestingDepth) {
    EXPECT_TRUE(JsonValue::parse(std::string(60, '[') + std::string(60, ']')).isOk());
    auto deep = JsonValue::parse(std::string(100, '[') + std::string(100, ']'));
    ASSERT_FALSE(deep.isOk());
    EXPECT_NE(deep.status().message().find("nesting"), std::string::npos);
}

TEST(JsonValue, AccessorsFallBackOnTypeMismatch) {
    auto v = JsonValue::parse(R"({"n": "text", "s": 5})");
    ASSERT_TRUE(v.isOk());
    EXPECT_EQ(v->numberAt("n", -1), -1);
    EXPECT_EQ(v->stringAt("s", "fallback"), "fallback");
    EXPECT_EQ(v->stringAt("missing", "x"), "x");
    EXPECT_EQ(v->find("missing"), nullptr);
}

}  // namespace
}  // namespace tomo
