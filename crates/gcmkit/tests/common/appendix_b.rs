//! The GCM specification's Appendix B test cases, shared by the test suites.

pub const K128: &str = "feffe9928665731c6d6a8f9467308308";
pub const K192: &str = "feffe9928665731c6d6a8f9467308308feffe9928665731c";
pub const K256: &str = "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308";
pub const P64: &str = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
pub const P60: &str = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39";
pub const A20: &str = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
pub const IV12: &str = "cafebabefacedbaddecaf888";
pub const IV8: &str = "cafebabefacedbad";
pub const IV60: &str = "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b";
pub const Z12: &str = "000000000000000000000000";
pub const Z16: &str = "00000000000000000000000000000000";

pub struct Case {
    pub n: u32,
    pub k: String,
    pub p: &'static str,
    pub a: &'static str,
    pub iv: &'static str,
    pub h: &'static str,
    pub y0: &'static str,
    pub ghash: &'static str,
    pub c: &'static str,
    pub t: &'static str,
}

pub fn cases() -> Vec<Case> {
    let z = |n: usize| "00".repeat(n);
    let c = |n, k: String, p, a, iv, h, y0, ghash, c, t| Case {
        n,
        k,
        p,
        a,
        iv,
        h,
        y0,
        ghash,
        c,
        t,
    };
    let y0_12 = "cafebabefacedbaddecaf88800000001";
    let y0_zero = "00000000000000000000000000000001";
    vec![
        c(1, z(16), "", "", Z12, "66e94bd4ef8a2c3b884cfa59ca342b2e", y0_zero, Z16, "", "58e2fccefa7e3061367f1d57a4e7455a"),
        c(2, z(16), Z16, "", Z12, "66e94bd4ef8a2c3b884cfa59ca342b2e", y0_zero, "f38cbb1ad69223dcc3457ae5b6b0f885", "0388dace60b6a392f328c2b971b2fe78", "ab6e47d42cec13bdf53a67b21257bddf"),
        c(3, K128.into(), P64, "", IV12, "b83b533708bf535d0aa6e52980d53b78", y0_12, "7f1b32b81b820d02614f8895ac1d4eac",
          "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985", "4d5c2af327cd64a62cf35abd2ba6fab4"),
        c(4, K128.into(), P60, A20, IV12, "b83b533708bf535d0aa6e52980d53b78", y0_12, "698e57f70e6ecc7fd9463b7260a9ae5f",
          "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091", "5bc94fbc3221a5db94fae95ae7121a47"),
        c(5, K128.into(), P60, A20, IV8, "b83b533708bf535d0aa6e52980d53b78", "c43a83c4c4badec4354ca984db252f7d", "df586bb4c249b92cb6922877e444d37b",
          "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c742373806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598", "3612d2e79e3b0785561be14aaca2fccb"),
        c(6, K128.into(), P60, A20, IV60, "b83b533708bf535d0aa6e52980d53b78", "3bab75780a31c059f83d2a44752f9864", "1c5afe9760d3932f3c9a878aac3dc3de",
          "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca701e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5", "619cc5aefffe0bfa462af43c1699d050"),
        c(7, z(24), "", "", Z12, "aae06992acbf52a3e8f4a96ec9300bd7", y0_zero, Z16, "", "cd33b28ac773f74ba00ed1f312572435"),
        c(8, z(24), Z16, "", Z12, "aae06992acbf52a3e8f4a96ec9300bd7", y0_zero, "e2c63f0ac44ad0e02efa05ab6743d4ce", "98e7247c07f0fe411c267e4384b0f600", "2ff58d80033927ab8ef4d4587514f0fb"),
        c(9, K192.into(), P64, "", IV12, "466923ec9ae682214f2c082badb39249", y0_12, "51110d40f6c8fff0eb1ae33445a889f0",
          "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710acade256", "9924a7c8587336bfb118024db8674a14"),
        c(10, K192.into(), P60, A20, IV12, "466923ec9ae682214f2c082badb39249", y0_12, "ed2ce3062e4a8ec06db8b4c490e8a268",
          "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710", "2519498e80f1478f37ba55bd6d27618c"),
        c(11, K192.into(), P60, A20, IV8, "466923ec9ae682214f2c082badb39249", "a14378078d27258a6292737e1802ada5", "1e6a133806607858ee80eaf237064089",
          "0f10f599ae14a154ed24b36e25324db8c566632ef2bbb34f8347280fc4507057fddc29df9a471f75c66541d4d4dad1c9e93a19a58e8b473fa0f062f7", "65dcc57fcf623a24094fcca40d3533f8"),
        c(12, K192.into(), P60, A20, IV60, "466923ec9ae682214f2c082badb39249", "4505cdc367a054c5002820e96aebef27", "82567fb0b4cc371801eadec005968e94",
          "d27e88681ce3243c4830165a8fdcf9ff1de9a1d8e6b447ef6ef7b79828666e4581e79012af34ddd9e2f037589b292db3e67c036745fa22e7e9b7373b", "dcf566ff291c25bbb8568fc3d376a6d9"),
        c(13, z(32), "", "", Z12, "dc95c078a2408989ad48a21492842087", y0_zero, Z16, "", "530f8afbc74536b9a963b4f1c4cb738b"),
        c(14, z(32), Z16, "", Z12, "dc95c078a2408989ad48a21492842087", y0_zero, "83de425c5edc5d498f382c441041ca92", "cea7403d4d606b6e074ec5d3baf39d18", "d0d1c8a799996bf0265b98b5d48ab919"),
        c(15, K256.into(), P64, "", IV12, "acbef20579b4b8ebce889bac8732dad7", y0_12, "4db870d37cb75fcb46097c36230d1612",
          "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad", "b094dac5d93471bdec1a502270e3cc6c"),
        c(16, K256.into(), P60, A20, IV12, "acbef20579b4b8ebce889bac8732dad7", y0_12, "8bd0c4d8aacd391e67cca447e8c38f65",
          "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662", "76fc6ece0f4e1768cddf8853bb2d551b"),
        c(17, K256.into(), P60, A20, IV8, "acbef20579b4b8ebce889bac8732dad7", "0095df49dd90abe3e4d252475748f5d4", "75a34288b8c68f811c52b2e9a2f97f63",
          "c3762df1ca787d32ae47c13bf19844cbaf1ae14d0b976afac52ff7d79bba9de0feb582d33934a4f0954cc2363bc73f7862ac430e64abe499f47c9b1f", "3a337dbf46a792c45e454913fe2ea8f2"),
        c(18, K256.into(), P60, A20, IV60, "acbef20579b4b8ebce889bac8732dad7", "0cd953e2140a5976079f8e2406bc8eb4", "d5ffcf6fc5ac4d69722187421a7f170b",
          "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf40fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f", "a44a8266ee1c8eb0c8b5d4cf5ae9f19a"),
    ]
}
