#include "games/chess/attacks.h"

#include "games/core/zobrist.h"

namespace arena::chess {

namespace {

constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// Magic numbers found once by the seeded search in init_magic (sparse random candidates,
// Stockfish's method) and stored, so that start-up only fills the tables; init_magic falls
// back to searching if a stored number ever fails its collision check.
constexpr std::array<Bitboard, 64> kRookMagics = {
    0x0880004000801022ULL, 0x4440200440021000ULL, 0x088008D002200080ULL, 0x8480041000480080ULL,
    0x1080040068008022ULL, 0x2200010842004410ULL, 0x1500008409000200ULL, 0x020000804029040AULL,
    0x4800800040008020ULL, 0x2082002200410082ULL, 0x0301001041082000ULL, 0xC041808008003000ULL,
    0x00A4800400800800ULL, 0x0010800200800400ULL, 0x0184800100020080ULL, 0x0040800040802100ULL,
    0x4000848004400060ULL, 0x8684444010002000ULL, 0x2006820010204200ULL, 0x0000090021001000ULL,
    0x2009010008001004ULL, 0x900C008004020080ULL, 0x4108040001100288ULL, 0x5020220000804114ULL,
    0x0080034240002000ULL, 0x03D0104040002000ULL, 0x4000100480200480ULL, 0x0040401200200A00ULL,
    0x0008008080040008ULL, 0x0001000300080400ULL, 0x4CE1080400421001ULL, 0x0860804200108124ULL,
    0x1000804000800020ULL, 0x2020100020400040ULL, 0x4030104202002080ULL, 0x8048048008801000ULL,
    0x40A0040080800802ULL, 0x0204020080800400ULL, 0x0500080104000290ULL, 0xA004012092000044ULL,
    0x0002008100420020ULL, 0x000150002008C000ULL, 0x090C410020090010ULL, 0x88422200400A0011ULL,
    0x0008002040040400ULL, 0x0002001004020008ULL, 0x021600C108020004ULL, 0x4204410080420004ULL,
    0x0040800821004100ULL, 0x0200842000400480ULL, 0x0020620140B68200ULL, 0x80100008E1510100ULL,
    0x0080800801040180ULL, 0x0803000804000300ULL, 0x0000080162300400ULL, 0x4002108041040200ULL,
    0x8200102040800101ULL, 0x4602400016210481ULL, 0x08000A0040102082ULL, 0x0410210108100005ULL,
    0x1011001008000423ULL, 0x11B1000400020801ULL, 0x0000012200881004ULL, 0x000008204401008AULL,
};
constexpr std::array<Bitboard, 64> kBishopMagics = {
    0x0A4C907009012380ULL, 0x8020040140410008ULL, 0x4008160416A03010ULL, 0x08482140C8000008ULL,
    0x1001104080060014ULL, 0x4001040240080400ULL, 0x8010880411040000ULL, 0x0001908228200400ULL,
    0x0004600504080C40ULL, 0x20400208010C1280ULL, 0x40A0100102202814ULL, 0x4900044040800003ULL,
    0x0143211040010002ULL, 0x4080008210408180ULL, 0x00031C2401041002ULL, 0x2040408410821000ULL,
    0x4209481020482082ULL, 0x1085002004040042ULL, 0x1029010806440080ULL, 0x2002021420220000ULL,
    0x0041000490400008ULL, 0x1040210A02100208ULL, 0x1848430488081840ULL, 0x20411000618A1020ULL,
    0x0444200840C80108ULL, 0x2010552010010200ULL, 0x34009000080A4090ULL, 0x00140800240A0008ULL,
    0x5181020004008400ULL, 0x2480408044100408ULL, 0x0082021000880100ULL, 0x0021042001040120ULL,
    0x8085442210502000ULL, 0x11D2482000041900ULL, 0x4000805000890400ULL, 0x0200202020080080ULL,
    0x000801240108C100ULL, 0x0C00880081211004ULL, 0x2A01010A00240211ULL, 0x262C090200405050ULL,
    0x0002092160300809ULL, 0x0132080404004200ULL, 0x11000C0044080800ULL, 0x0410004200840800ULL,
    0x0081082104020040ULL, 0x2002040806000420ULL, 0x042028050120044CULL, 0x0041010222010084ULL,
    0x0108412828411400ULL, 0x0002010401044029ULL, 0x0009008848084D44ULL, 0x0000808104091200ULL,
    0x1A0100111E120000ULL, 0x8004900210410003ULL, 0xA007500401040800ULL, 0xD030500080809004ULL,
    0x000014008210100AULL, 0x0000408400880501ULL, 0x0010001044044400ULL, 0x00080029A0208800ULL,
    0x008C1000C0050102ULL, 0x0800040604080A04ULL, 0x0200109001080880ULL, 0x1808100122082200ULL,
};

// Relevant occupancy: the rays without their last square (an edge blocker changes nothing).
Bitboard relevant_mask(bool rook, Square s) {
  const Bitboard edges = ((kRank1 | kRank8) & ~(kRank1 << (8 * rank_of(s)))) |
                         ((kFileA | kFileH) & ~(kFileA << file_of(s)));
  return sliding_attacks_slow(rook, s, 0) & ~edges;
}

// Finds a magic for square s and appends its attack table; Stockfish's sparse-random method.
void init_magic(bool rook, Square s, Magic& m, std::vector<Bitboard>& table, std::uint64_t& rng) {
  m.mask = relevant_mask(rook, s);
  const int bits = popcount(m.mask);
  m.shift = static_cast<unsigned>(64 - bits);
  m.offset = static_cast<std::uint32_t>(table.size());
  const std::size_t size = std::size_t{1} << bits;
  std::vector<Bitboard> occupancy(size);
  std::vector<Bitboard> reference(size);
  Bitboard sub = 0;
  for (std::size_t i = 0; i < size; ++i) {  // Carry-Rippler enumeration of subsets
    occupancy[i] = sub;
    reference[i] = sliding_attacks_slow(rook, s, sub);
    sub = (sub - m.mask) & m.mask;
  }
  table.resize(table.size() + size);
  std::vector<int> epoch(size, 0);
  for (int attempt = 1;; ++attempt) {
    if (attempt == 1) {
      m.magic = rook ? kRookMagics[s] : kBishopMagics[s];
    } else {
      do {
        m.magic = splitmix64(rng) & splitmix64(rng) & splitmix64(rng);
      } while (popcount((m.mask * m.magic) >> 56) < 6);
    }
    bool ok = true;
    for (std::size_t i = 0; i < size && ok; ++i) {
      const std::uint32_t idx = m.index(occupancy[i]);
      const std::size_t local = idx - m.offset;
      if (epoch[local] < attempt) {
        epoch[local] = attempt;
        table[idx] = reference[i];
      } else if (table[idx] != reference[i]) {
        ok = false;
      }
    }
    if (ok) return;
  }
}

}  // namespace

Bitboard sliding_attacks_slow(bool rook, Square s, Bitboard occupied) {
  Bitboard result = 0;
  for (const auto& d : rook ? kRookDirs : kBishopDirs) {
    int f = file_of(s) + d[0];
    int r = rank_of(s) + d[1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      const Bitboard b = square_bb(make_square(f, r));
      result |= b;
      if (occupied & b) break;
      f += d[0];
      r += d[1];
    }
  }
  return result;
}

SliderTables build_slider_tables() {
  SliderTables t;
  t.attacks.reserve(102400 + 5248);
  std::uint64_t rng = 0x5EEDC4E55ULL;
  for (Square s = 0; s < 64; ++s) init_magic(true, s, t.rook[s], t.attacks, rng);
  for (Square s = 0; s < 64; ++s) init_magic(false, s, t.bishop[s], t.attacks, rng);
  for (Square a = 0; a < 64; ++a) {
    for (Square b = 0; b < 64; ++b) {
      const Bitboard bb = square_bb(b);
      for (bool rook : {true, false}) {
        if (sliding_attacks_slow(rook, a, 0) & bb) {
          t.line[a][b] = (sliding_attacks_slow(rook, a, 0) & sliding_attacks_slow(rook, b, 0)) |
                         square_bb(a) | bb;
          t.between[a][b] =
              sliding_attacks_slow(rook, a, bb) & sliding_attacks_slow(rook, b, square_bb(a));
        }
      }
      t.between[a][b] |= bb;
    }
  }
  return t;
}

}  // namespace arena::chess
